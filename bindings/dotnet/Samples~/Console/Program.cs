// A person against two heuristic bots in Schacht's Diabolo, on the console: the sample of the
// .NET binding. Each turn of the person shows the seat's view (hand, rows, scores) and the
// legal moves, numbered; type a number or a move's notation ("R3<"). The bots answer at
// once. End of input ends the game where it stands.
//   mcs -r:Diabolo.dll Program.cs && mono Program.exe [seed]
using System;
using System.Collections.Generic;
using System.Linq;
using Diabolo;

public static class Program
{
    public static int Main(string[] args)
    {
        ulong seed = args.Length > 0 ? ulong.Parse(args[0]) : 1;
        const int person = 0;
        using (var game = new Game("schacht", "{\"players\": 3}"))
        using (var bot = game.Bot("heuristic"))
        using (var state = game.NewState(seed))
        {
            Console.WriteLine("Schacht's Diabolo, seed " + seed + ": you are seat 0 against two heuristic bots.");
            ulong asked = 0;
            while (!state.IsTerminal)
            {
                int seat = state.PendingSeats[0];
                if (seat == person)
                {
                    if (!PersonMoves(state, person)) return 0;
                    continue;
                }
                var choice = bot.Choose(state, seat, ++asked);
                int action = choice.Action ?? state.LegalActions(seat)[0];
                state.Apply(seat, action);
                Console.WriteLine("seat " + seat + " plays " + game.ActionNotation(action));
            }
            Console.WriteLine("final scores: " + string.Join(" ", state.Scores));
        }
        return 0;
    }

    /// Shows the person's view and moves and plays the one typed; false at the end of input.
    static bool PersonMoves(State state, int seat)
    {
        var view = (Dictionary<string, object>)Json.Parse(state.Observation(seat));
        var hand = ((List<object>)view["hand"]).Cast<string>();
        Console.WriteLine("round " + ((long)view["round"] + 1) + ", scores " +
                          string.Join(" ", ((List<object>)view["scores"]).Cast<long>()) + ", your hand: " +
                          string.Join(" ", hand));
        var moves = state.LegalMoves(seat);
        Console.WriteLine("your moves: " + string.Join("  ", moves.Select((m, i) => i + ":" + m.Notation)));
        while (true)
        {
            Console.Write("> ");
            var line = Console.ReadLine();
            if (line == null)
            {
                Console.WriteLine("(end of input: the game stops here, scores " + string.Join(" ", state.Scores) + ")");
                return false;
            }
            int index;
            var typed = line.Trim();
            try
            {
                if (int.TryParse(typed, out index) && index >= 0 && index < moves.Length)
                    state.Apply(seat, moves[index].Action);
                else
                    state.Apply(seat, typed);
                return true;
            }
            catch (DiaboloException e)
            {
                Console.WriteLine("not now: " + e.Message + (e.Clause.Length > 0 ? " (" + e.Clause + ")" : ""));
            }
        }
    }
}
