// The binding's test program, built and run by tests/test_dotnet.py:
//   Transcripts.exe replay FILE...          replays golden transcripts (tests/transcripts.py's
//                                           format), printing "NAME LINES" for each; exit 1 and
//                                           the line that differs otherwise
//   Transcripts.exe play GAME OPTIONS DEAL SEED BOT MAX_MOVES VIEW_EVERY
//                                           plays a game by tests/transcripts.py's rule and
//                                           prints its transcript, which the test compares
//                                           with Python's for the same arguments
//   Transcripts.exe api                     the binding's own promises (errors, values, events)
using System;
using System.Collections.Generic;
using System.IO;
using System.Linq;
using Diabolo;

public static class Transcripts
{
    public static int Main(string[] args)
    {
        if (!Engine.Compatible) throw new Exception("the native library speaks another API version");
        switch (args.Length > 0 ? args[0] : "")
        {
            case "replay":
                foreach (var path in args.Skip(1)) Console.WriteLine(Path.GetFileName(path) + " " + Replay(path));
                return 0;
            case "play":
                foreach (var line in Play(args[1], args[2], args[3], ulong.Parse(args[4]), args[5], int.Parse(args[6]),
                             int.Parse(args[7])))
                    Console.WriteLine(line);
                return 0;
            case "api":
                Api();
                Console.WriteLine("api ok");
                return 0;
            default:
                Console.Error.WriteLine("usage: Transcripts.exe replay FILE... | play ... | api");
                return 2;
        }
    }

    static void Expect(bool condition, string what)
    {
        if (!condition) throw new Exception("differs: " + what);
    }

    static string Header(string line, string tag)
    {
        Expect(line != null && line.StartsWith(tag + " "), "a " + tag + " line");
        return line.Substring(tag.Length + 1);
    }

    static int Replay(string path)
    {
        var lines = File.ReadAllLines(path);
        Expect(lines[0] == "diabolo.transcript/1", path + ": the format line");
        using (var game = new Game(Header(lines[1], "game"), Header(lines[2], "options")))
        using (var state = game.Deal(ulong.Parse(Header(lines[4], "seed")), Header(lines[3], "deal")))
        {
            Bot bot = null;
            string kind = null;
            for (int i = 5; i < lines.Length; ++i)
            {
                var line = lines[i];
                var at = path + " line " + (i + 1) + ": " + (line.Length > 120 ? line.Substring(0, 120) : line);
                var parts = line.Split(new[] { ' ' }, 3);
                switch (parts[0])
                {
                    case "bot":
                    {
                        var fields = line.Split(' ');
                        if (fields[1] != kind)
                        {
                            if (bot != null) bot.Dispose();
                            bot = game.Bot(fields[1]);
                            kind = fields[1];
                        }
                        var choice = bot.Choose(state, int.Parse(fields[2]), ulong.Parse(fields[3]));
                        Expect((choice.Action ?? -1).ToString() == fields[4], at);
                        Expect(choice.DelayMicroseconds.ToString() == fields[5], at);
                        Expect((choice.Notation ?? "-") == fields[6], at);
                        break;
                    }
                    case "legal":
                        Expect(string.Join(" ", new[] { parts[1] }.Concat(state.LegalActions(int.Parse(parts[1]))
                                   .Select(id => id.ToString()))) == line.Substring(6), at);
                        break;
                    case "move":
                        state.Apply(int.Parse(parts[1]), parts[2]);
                        break;
                    case "events":
                        Expect(state.EventsJson(int.Parse(parts[1])) == parts[2], at);
                        break;
                    case "view":
                        Expect(state.Observation(int.Parse(parts[1])) == parts[2], at);
                        break;
                    case "scores":
                        Expect("scores " + string.Join(" ", state.Scores) == line, at);
                        break;
                    case "end":
                        if (bot != null) bot.Dispose();
                        return i - 4;
                    default:
                        throw new Exception(at + ": an unknown line");
                }
            }
        }
        throw new Exception(path + ": no end line");
    }

    /// The transcript tests/transcripts.py's transcript() writes for the same arguments.
    static IEnumerable<string> Play(string name, string options, string deal, ulong seed, string kind, int maxMoves,
        int viewEvery)
    {
        using (var game = new Game(name, options))
        using (var state = game.Deal(seed, deal))
        using (var bot = game.Bot(kind))
        {
            yield return "diabolo.transcript/1";
            yield return "game " + name;
            yield return "options " + options;
            yield return "deal " + deal;
            yield return "seed " + seed;
            yield return "view -1 " + state.Observation(Turn.Spectator);
            int moves = 0;
            while (!state.IsTerminal && moves < maxMoves)
            {
                var pending = state.PendingSeats;
                int chosenSeat = -1;
                string chosen = null;
                foreach (var seat in pending)
                {
                    ulong botSeed = (ulong)(moves * 16 + seat);
                    var choice = bot.Choose(state, seat, botSeed);
                    yield return "bot " + kind + " " + seat + " " + botSeed + " " + (choice.Action ?? -1) + " " +
                                 choice.DelayMicroseconds + " " + (choice.Notation ?? "-");
                    if (choice.Action.HasValue)
                    {
                        chosenSeat = seat;
                        chosen = choice.Notation;
                        break;
                    }
                }
                foreach (var seat in pending)
                    yield return "legal " + seat + string.Concat(state.LegalActions(seat).Select(id => " " + id));
                if (chosen == null)
                {
                    chosenSeat = pending[0];
                    chosen = game.ActionNotation(state.LegalActions(chosenSeat)[0]);
                }
                state.Apply(chosenSeat, chosen);
                ++moves;
                yield return "move " + chosenSeat + " " + chosen;
                yield return "events " + chosenSeat + " " + state.EventsJson(chosenSeat);
                yield return "events -1 " + state.EventsJson(Turn.Spectator);
                yield return "scores " + string.Join(" ", state.Scores);
                if (moves % viewEvery == 0)
                {
                    int viewer = moves / viewEvery % (game.Players + 1) - 1;
                    yield return "view " + viewer + " " + state.Observation(viewer);
                }
            }
            for (int seat = 0; seat < game.Players; ++seat) yield return "view " + seat + " " + state.Observation(seat);
            yield return "end";
        }
    }

    static void Api()
    {
        Expect(string.Join(",", Engine.Games) == "duvelen,knizia,schacht", "the games");
        using (var game = new Game("schacht", "{\"players\": 3}"))
        using (var state = game.NewState(5))
        {
            var before = state.ToJson();
            try
            {
                state.Apply(0, "G4<");
                Expect(false, "a move out of turn is refused");
            }
            catch (IllegalMoveException e)
            {
                Expect(e.Code == "not_your_turn" && e.Clause == "S2.2" && e.Status == Status.IllegalMove, e.Message);
            }
            Expect(state.ToJson() == before, "a refused move changes nothing");
            try
            {
                state.Apply(1, "not a move");
                Expect(false, "bad notation is refused");
            }
            catch (NotationException e)
            {
                Expect(e.Status == Status.BadNotation && e.Message.Length > 0, e.Message);
            }
            try
            {
                state.LegalActions(7);
                Expect(false, "no seat 7");
            }
            catch (PlayerException) { }
            try
            {
                new Game("chess").Dispose();
                Expect(false, "no such game");
            }
            catch (OptionException e)
            {
                Expect(e.Code.Length > 0, e.Message);
            }
            using (var copy = state.Clone())
            {
                state.Apply(1, "R3<");
                Expect(state.Version == 1 && copy.Version == 0, "a clone is independent");
                var events = state.Events(1);
                Expect(events[0].Type == "placed" && events[0].Seat == 1 && (string)events[0].Fields["card"] == "R3",
                    "typed events");
                Expect(state.LegalMoves(2).All(m => game.ActionNotation(m.Action) == m.Notation), "moves' notation");
                Expect(state.LegalMask(2).Count(b => b == 1) == state.LegalActions(2).Length, "the mask");
            }
            using (var again = game.StateFromJson(state.ToJson()))
                Expect(again.Observation(Turn.Spectator) == state.Observation(Turn.Spectator), "JSON round trip");
            int[] moves;
            var scores = game.PlayRandom(4, 1, 2, out moves);
            int[] again1;
            game.PlayRandom(4, 1, 1, out again1);
            Expect(scores.Length == 4 && scores[0].Length == 3 && moves.SequenceEqual(again1), "random games");
            using (var position = state.Position())
            using (var playout = position.Clone())
            {
                while (!playout.IsTerminal)
                {
                    int seat = playout.PendingSeats[0];
                    playout.Apply(seat, playout.LegalActions(seat)[0]);
                }
                Expect(!position.IsTerminal && playout.Scores.Length == 3, "positions");
            }
        }
        var parsed = (Dictionary<string, object>)Json.Parse("{\"a\":[1,-2.5e1,\"\\u00e9\\n\",true,null],\"b\":{}}");
        var list = (List<object>)parsed["a"];
        Expect((long)list[0] == 1 && (double)list[1] == -25.0 && (string)list[2] == "é\n" && (bool)list[3] &&
               list[4] == null, "JSON values");
        foreach (var bad in new[] { "", "{", "[1,]", "{\"a\" 1}", "tru", "\"x", "1 2", new string('[', 100) })
        {
            try
            {
                Json.Parse(bad);
                Expect(false, "bad JSON refused: " + bad);
            }
            catch (FormatException) { }
        }
    }
}
