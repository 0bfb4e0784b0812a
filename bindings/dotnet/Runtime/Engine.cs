// The diabolo rules engine for .NET (Unity, Godot .NET, Mono, .NET): Diabolo by Schacht and
// by Knizia, and Duvelen, over the C API, with the same games, views, events and bots as in
// Python, C, Rust, Cython and JavaScript (the golden transcripts are replayed by each).
// Written to .NET Standard 2.0 and C# 7.3.
using System;
using System.Collections.Generic;
using System.Linq;

namespace Diabolo
{
    /// <summary>The library: its version and its games.</summary>
    /// <example><code>
    /// Console.WriteLine(Engine.Version + ": " + string.Join(", ", Engine.Games)); // 0.1.0: duvelen, knizia, schacht
    /// </code></example>
    public static class Engine
    {
        /// <summary>The C API version this binding is written for.</summary>
        public const int ApiVersion = 1;

        /// <summary>The native library's version ("0.1.0").</summary>
        public static string Version => Native.Text(Native.Version());

        /// <summary>The ids of the listed games, sorted.</summary>
        public static string[] Games => Split(Native.Text(Native.Games()));

        /// <summary>The catalogue of games as JSON text (name, title, seats, bots ... of each).</summary>
        public static string Catalogue => Native.Text(Native.Catalogue());

        /// <summary>Whether the native library speaks this binding's API version.</summary>
        public static bool Compatible => Native.ApiVersion() == ApiVersion;

        internal static string[] Split(string list)
        {
            return (list ?? "").Split(new[] { ',' }, StringSplitOptions.RemoveEmptyEntries);
        }
    }

    /// <summary>Who moves: a seat, several seats at once (real time), or no one (over).</summary>
    public static class Turn
    {
        /// <summary>A spectator, for views and events: the public view.</summary>
        public const int Spectator = Native.Spectator;

        /// <summary><see cref="State.CurrentPlayer"/> when several seats may move at once.</summary>
        public const int Simultaneous = Native.Simultaneous;

        /// <summary><see cref="State.CurrentPlayer"/> when the game is over.</summary>
        public const int Terminal = Native.Terminal;
    }

    /// <summary>A legal move: its action id and its notation ("G5&lt;", "LAGER").</summary>
    public struct Move : IEquatable<Move>
    {
        public int Action { get; }
        public string Notation { get; }

        public Move(int action, string notation)
        {
            Action = action;
            Notation = notation;
        }

        public bool Equals(Move other) => Action == other.Action && Notation == other.Notation;
        public override bool Equals(object other) => other is Move move && Equals(move);
        public override int GetHashCode() => Action;
        public override string ToString() => Notation;
    }

    /// <summary>
    /// One event of a move as a viewer sees it: its type ("placed", "drew", ...), the seat it
    /// concerns (null if none), its fields as <see cref="Json"/> reads them, and its JSON text.
    /// </summary>
    public sealed class GameEvent
    {
        public string Type { get; }
        public int? Seat { get; }
        public IReadOnlyDictionary<string, object> Fields { get; }

        internal GameEvent(Dictionary<string, object> fields)
        {
            Fields = fields;
            object type, seat;
            Type = fields.TryGetValue("type", out type) ? type as string : null;
            Seat = fields.TryGetValue("seat", out seat) && seat is long ? (int?)(long)seat : null;
        }

        public override string ToString() => Type + (Seat.HasValue ? " " + Seat.Value : "");
    }

    /// <summary>A bot's answer: the move it makes now (null: it waits), and after how long.</summary>
    public struct BotChoice
    {
        /// <summary>The action id, or null when the bot waits or its seat has nothing to do.</summary>
        public int? Action { get; }

        /// <summary>The move's notation (a Knizia claim names its cards), or null.</summary>
        public string Notation { get; }

        /// <summary>The microseconds after which the bot would act in live play (0 in turns).</summary>
        public long DelayMicroseconds { get; }

        internal BotChoice(int? action, string notation, long delay)
        {
            Action = action;
            Notation = notation;
            DelayMicroseconds = delay;
        }
    }

    /// <summary>
    /// A game: its rules and options. States and bots made from it keep what they need, so it
    /// may be disposed before them.
    /// </summary>
    /// <example><code>
    /// using (var game = new Game("schacht", "{\"players\": 3}"))
    /// using (var state = game.NewState(7))
    /// {
    ///     int seat = state.CurrentPlayer;
    ///     Move first = state.LegalMoves(seat)[0];
    ///     state.Apply(seat, first.Action);
    /// }
    /// </code></example>
    public sealed class Game : IDisposable
    {
        internal readonly GameHandle Handle;

        /// <summary>A game by id with its options as a JSON object (null: the defaults).</summary>
        /// <exception cref="OptionException">an unknown game or option</exception>
        public Game(string name, string optionsJson = null)
        {
            var error = Native.NewError();
            Native.Check(Native.GameNew(Native.Utf8(name), Native.Utf8(optionsJson), out Handle, ref error), ref error);
        }

        private Game(GameHandle handle)
        {
            Handle = handle;
        }

        /// <summary>
        /// A Knizia game with its word list in the binary form of Python's
        /// diabolo.Lexicon.to_bytes(): what a program ships instead of the words.
        /// </summary>
        public static Game WithLexicon(string name, string optionsJson, byte[] lexicon)
        {
            if (lexicon == null) throw new ArgumentNullException(nameof(lexicon));
            var error = Native.NewError();
            GameHandle handle;
            Native.Check(
                Native.GameNewWithLexicon(Native.Utf8(name), Native.Utf8(optionsJson), lexicon,
                    (UIntPtr)lexicon.Length, out handle, ref error), ref error);
            return new Game(handle);
        }

        public int Players => Native.GamePlayers(Handle);

        /// <summary>The number of action ids: every legal action is below it.</summary>
        public int NumActions => Native.GameNumActions(Handle);

        /// <summary>Whether every seat with a legal move may move at any time (Duvelen D3, Knizia K3.2).</summary>
        public bool RealTime => Native.GameRealTime(Handle) == 1;

        /// <summary>Every option with its value, as a JSON object.</summary>
        public string OptionsJson
        {
            get
            {
                var error = Native.NewError();
                return Native.OwnedText(Native.GameOptions(Handle), ref error);
            }
        }

        /// <summary>The kinds of bots of this game ("heuristic", "ismcts", ...).</summary>
        public string[] Bots => Engine.Split(Native.Text(Native.GameBots(Handle)));

        /// <summary>The notation of an action id ("G5&lt;").</summary>
        public string ActionNotation(int action)
        {
            var error = Native.NewError();
            return Native.OwnedText(Native.GameActionNotation(Handle, action, ref error), ref error);
        }

        /// <summary>A new game shuffled from <paramref name="seed"/>: the same in every language.</summary>
        public State NewState(ulong seed)
        {
            var error = Native.NewError();
            StateHandle state;
            Native.Check(Native.StateNew(Handle, seed, out state, ref error), ref error);
            return new State(this, state);
        }

        /// <summary>A new game from a given deal (JSON, S2.4, D2.5, K10.7); the rest shuffled from the seed.</summary>
        public State Deal(ulong seed, string dealJson)
        {
            var error = Native.NewError();
            StateHandle state;
            Native.Check(Native.StateDeal(Handle, seed, Native.Utf8(dealJson), out state, ref error), ref error);
            return new State(this, state);
        }

        /// <summary>The state a JSON text of <see cref="State.ToJson"/> holds.</summary>
        public State StateFromJson(string json)
        {
            var error = Native.NewError();
            StateHandle state;
            Native.Check(Native.StateFromJson(Handle, Native.Utf8(json), out state, ref error), ref error);
            return new State(this, state);
        }

        /// <summary>
        /// Whole games of random legal moves on some threads: each game's final scores (a row a
        /// game) and its number of moves; the same seed gives the same games on any thread count.
        /// </summary>
        public int[][] PlayRandom(int games, ulong seed, int threads, out int[] moves)
        {
            int players = Players;
            var scores = new int[games * players];
            moves = new int[games];
            var error = Native.NewError();
            Native.Check(Native.PlayRandom(Handle, games, seed, threads, scores, moves, ref error), ref error);
            return Enumerable.Range(0, games).Select(g => scores.Skip(g * players).Take(players).ToArray()).ToArray();
        }

        /// <summary>A bot of this game by kind, with its options as a JSON object (null: the defaults).</summary>
        public Bot Bot(string kind, string optionsJson = null)
        {
            var error = Native.NewError();
            BotHandle bot;
            Native.Check(Native.BotNew(Handle, Native.Utf8(kind), Native.Utf8(optionsJson), out bot, ref error), ref error);
            return new Bot(bot);
        }

        public void Dispose() => Handle.Dispose();
    }

    /// <summary>
    /// A game in progress with its record: what a frontend keeps. A value: <see cref="Clone"/>
    /// to branch; it may be read from several threads at once, changed from one.
    /// </summary>
    public sealed class State : IDisposable
    {
        internal readonly StateHandle Handle;
        private readonly Game game;

        internal State(Game game, StateHandle handle)
        {
            this.game = game;
            Handle = handle;
        }

        public Game Game => game;

        /// <summary>An independent copy.</summary>
        public State Clone()
        {
            var copy = Native.StateClone(Handle);
            if (copy.IsInvalid) throw new OutOfMemoryException("copying a state");
            return new State(game, copy);
        }

        /// <summary>The seat to move, <see cref="Turn.Simultaneous"/> or <see cref="Turn.Terminal"/>.</summary>
        public int CurrentPlayer => Native.StateCurrentPlayer(Handle);

        /// <summary>The seats that may or must act now, ascending.</summary>
        public int[] PendingSeats => Seats(Native.StatePendingSeats(Handle));

        public bool IsTerminal => Native.StateIsTerminal(Handle) == 1;

        /// <summary>The number of moves applied.</summary>
        public ulong Version => Native.StateVersion(Handle);

        /// <summary>The legal action ids of a seat, ascending.</summary>
        /// <exception cref="PlayerException">no such seat</exception>
        public int[] LegalActions(int seat)
        {
            return Ids(seat, (ids, capacity) => Native.StateLegalActions(Handle, seat, ids, capacity));
        }

        /// <summary>The legal moves of a seat with their notation, in action order.</summary>
        public Move[] LegalMoves(int seat)
        {
            return LegalActions(seat).Select(id => new Move(id, game.ActionNotation(id))).ToArray();
        }

        /// <summary>mask[id] is 1 for each legal action id of a seat, for every id of the game.</summary>
        public byte[] LegalMask(int seat)
        {
            var mask = new byte[game.NumActions];
            if (Native.StateLegalMask(Handle, seat, mask, mask.Length) < 0) throw NoSeat(seat);
            return mask;
        }

        /// <summary>Plays an action id for a seat; an exception changes nothing.</summary>
        /// <exception cref="IllegalMoveException">the rules forbid it now</exception>
        public void Apply(int seat, int action)
        {
            var error = Native.NewError();
            Native.Check(Native.StateApplyAction(Handle, seat, action, ref error), ref error);
        }

        /// <summary>Plays a move in the game's notation ("G5&lt;", "R2:7h&gt;3", "LAGER").</summary>
        /// <exception cref="NotationException">not a move of the game</exception>
        /// <exception cref="IllegalMoveException">the rules forbid it now</exception>
        public void Apply(int seat, string notation)
        {
            var error = Native.NewError();
            Native.Check(Native.StateApplyMove(Handle, seat, Native.Utf8(notation), ref error), ref error);
        }

        /// <summary>Every seat's score so far.</summary>
        public int[] Scores => ScoresOf((scores, capacity) => Native.StateScores(Handle, scores, capacity));

        /// <summary>The view of a seat (<see cref="Turn.Spectator"/>: the public view) as JSON text.</summary>
        public string Observation(int seat)
        {
            var error = Native.NewError();
            return Native.OwnedText(Native.StateObservation(Handle, seat, ref error), ref error);
        }

        /// <summary>The last move's events as a seat (or a spectator) sees them, as JSON text.</summary>
        public string EventsJson(int seat)
        {
            var error = Native.NewError();
            return Native.OwnedText(Native.StateEvents(Handle, seat, ref error), ref error);
        }

        /// <summary>The last move's events as a seat (or a spectator) sees them.</summary>
        public GameEvent[] Events(int seat)
        {
            var list = (List<object>)Json.Parse(EventsJson(seat));
            return list.Select(entry => new GameEvent((Dictionary<string, object>)entry)).ToArray();
        }

        /// <summary>The observation tensor of a seat (Python's state.observation_tensor(seat)).</summary>
        public float[] ObservationTensor(int seat)
        {
            int size = Native.StateObservationTensor(Handle, seat, null, 0);
            if (size < 0) throw NoSeat(seat);
            var values = new float[size];
            Native.StateObservationTensor(Handle, seat, values, size);
            return values;
        }

        /// <summary>The whole state, its record included, as JSON text (<see cref="Game.StateFromJson"/> reads it).</summary>
        public string ToJson()
        {
            var error = Native.NewError();
            return Native.OwnedText(Native.StateToJson(Handle), ref error);
        }

        /// <summary>What a seat cannot see, dealt anew from a seed (determinisation, for search).</summary>
        public State Resample(int seat, ulong seed)
        {
            var error = Native.NewError();
            StateHandle state;
            Native.Check(Native.StateResample(Handle, seat, seed, out state, ref error), ref error);
            return new State(game, state);
        }

        /// <summary>The state's table without its record, for search.</summary>
        public Position Position()
        {
            var error = Native.NewError();
            PositionHandle position;
            Native.Check(Native.StatePosition(Handle, out position, ref error), ref error);
            return new Position(position);
        }

        public void Dispose() => Handle.Dispose();

        internal static int[] Seats(uint bits)
        {
            return Enumerable.Range(0, 32).Where(seat => (bits >> seat & 1) == 1).ToArray();
        }

        /// <summary>The ids a diabolo_*_legal_actions call writes, asked for their count first.</summary>
        internal static int[] Ids(int seat, Func<int[], int, int> fill)
        {
            int count = fill(null, 0);
            if (count < 0) throw NoSeat(seat);
            var ids = new int[count];
            fill(ids, count);
            return ids;
        }

        /// <summary>The scores a diabolo_*_scores call writes (32: more than any game's seats).</summary>
        internal static int[] ScoresOf(Func<int[], int, int> fill)
        {
            var scores = new int[32];
            int count = fill(scores, scores.Length);
            return scores.Take(Math.Max(0, Math.Min(count, 32))).ToArray();
        }

        internal static PlayerException NoSeat(int seat)
        {
            return new PlayerException("no_such_seat", "", "no seat " + seat + " at this table");
        }
    }

    /// <summary>
    /// A state's table alone, without its record: copying one allocates nothing and a move on
    /// one is checked but recorded nowhere, which is what search code wants.
    /// </summary>
    public sealed class Position : IDisposable
    {
        internal readonly PositionHandle Handle;

        internal Position(PositionHandle handle)
        {
            Handle = handle;
        }

        public Position Clone()
        {
            var copy = Native.PositionClone(Handle);
            if (copy.IsInvalid) throw new OutOfMemoryException("copying a position");
            return new Position(copy);
        }

        /// <summary>Overwrites this position with another of the same game, reusing its memory.</summary>
        public void CopyFrom(Position from)
        {
            var error = Native.NewError();
            Native.Check(Native.PositionCopy(Handle, from.Handle, ref error), ref error);
        }

        /// <summary>Overwrites this position with what a seat of another cannot see dealt anew from a seed.</summary>
        public void ResampleFrom(Position from, int seat, ulong seed)
        {
            var error = Native.NewError();
            Native.Check(Native.PositionResample(from.Handle, seat, seed, Handle, ref error), ref error);
        }

        public int CurrentPlayer => Native.PositionCurrentPlayer(Handle);
        public int[] PendingSeats => State.Seats(Native.PositionPendingSeats(Handle));
        public bool IsTerminal => Native.PositionIsTerminal(Handle) == 1;

        public int[] LegalActions(int seat)
        {
            return State.Ids(seat, (ids, capacity) => Native.PositionLegalActions(Handle, seat, ids, capacity));
        }

        /// <summary>Plays an action id for a seat, checked as <see cref="State.Apply(int, int)"/>; nothing is recorded.</summary>
        public void Apply(int seat, int action)
        {
            var error = Native.NewError();
            Native.Check(Native.PositionApplyAction(Handle, seat, action, ref error), ref error);
        }

        public int[] Scores => State.ScoresOf((scores, capacity) => Native.PositionScores(Handle, scores, capacity));

        public void Dispose() => Handle.Dispose();
    }

    /// <summary>A bot of one game (<see cref="Game.Bot"/>): the same moves as Python's for the same state, seat and seed.</summary>
    /// <example><code>
    /// using (var bot = game.Bot("heuristic"))
    /// {
    ///     BotChoice choice = bot.Choose(state, 1, 1);
    ///     if (choice.Action.HasValue) state.Apply(1, choice.Action.Value);
    /// }
    /// </code></example>
    public sealed class Bot : IDisposable
    {
        internal readonly BotHandle Handle;

        internal Bot(BotHandle handle)
        {
            Handle = handle;
        }

        /// <summary>The move the bot makes for a seat now, from what that seat may know, its random choices drawn from a seed.</summary>
        public BotChoice Choose(State state, int seat, ulong seed)
        {
            var error = Native.NewError();
            int action;
            IntPtr notation;
            long delay;
            Native.Check(Native.BotChoose(Handle, state.Handle, seat, seed, out action, out notation, out delay, ref error),
                ref error);
            string text = notation == IntPtr.Zero ? null : Native.OwnedText(notation, ref error);
            return new BotChoice(action == Native.Wait ? (int?)null : action, text, delay);
        }

        public void Dispose() => Handle.Dispose();
    }
}
