// The engine's errors as exceptions, one class per status of the C API, each with the
// error's stable code ("not_your_turn") and the rule's clause ("S2.2"): the classes of
// Python's diabolo.errors under .NET names.
using System;
using System.Text;

namespace Diabolo
{
    /// <summary>What a failed call returns in the C API: its status.</summary>
    public enum Status
    {
        Ok = 0,
        IllegalMove = 1,
        StaleMove = 2,
        BadNotation = 3,
        BadOption = 4,
        BadState = 5,
        BadPlayer = 6,
        Limit = 7,
        Error = 8,
        BadArgument = 9,
    }

    /// <summary>
    /// A call the engine refused; nothing changed. <see cref="Code"/> is stable across
    /// versions and languages, <see cref="Clause"/> names the rule ("S2.2", empty if none).
    /// </summary>
    /// <example><code>
    /// try { state.Apply(0, "G4&lt;"); }
    /// catch (IllegalMoveException e) { Console.WriteLine(e.Code + " " + e.Clause); } // not_your_turn S2.2
    /// </code></example>
    public class DiaboloException : Exception
    {
        public Status Status { get; }
        public string Code { get; }
        public string Clause { get; }

        public DiaboloException(Status status, string code, string clause, string message) : base(message)
        {
            Status = status;
            Code = code;
            Clause = clause;
        }

        internal static DiaboloException From(int status, NativeError error)
        {
            var code = Decode(error.Code);
            var clause = Decode(error.Clause);
            var message = Decode(error.Message);
            switch ((Status)status)
            {
                case Status.IllegalMove: return new IllegalMoveException(code, clause, message);
                case Status.StaleMove: return new StaleMoveException(code, clause, message);
                case Status.BadNotation: return new NotationException(code, clause, message);
                case Status.BadOption: return new OptionException(code, clause, message);
                case Status.BadState: return new StateFormatException(code, clause, message);
                case Status.BadPlayer: return new PlayerException(code, clause, message);
                case Status.Limit: return new LimitException(code, clause, message);
                default: return new DiaboloException((Status)status, code, clause, message);
            }
        }

        private static string Decode(byte[] text)
        {
            if (text == null) return "";
            int length = Array.IndexOf(text, (byte)0);
            return Encoding.UTF8.GetString(text, 0, length < 0 ? text.Length : length);
        }
    }

    /// <summary>The rules forbid the move now (<see cref="DiaboloException.Clause"/> names the rule).</summary>
    public class IllegalMoveException : DiaboloException
    {
        public IllegalMoveException(string code, string clause, string message)
            : base(Status.IllegalMove, code, clause, message) { }

        protected IllegalMoveException(Status status, string code, string clause, string message)
            : base(status, code, clause, message) { }
    }

    /// <summary>The move was legal on an older version of the table: it lost a race.</summary>
    public class StaleMoveException : IllegalMoveException
    {
        public StaleMoveException(string code, string clause, string message)
            : base(Status.StaleMove, code, clause, message) { }
    }

    /// <summary>Text that is not a move of the game.</summary>
    public class NotationException : DiaboloException
    {
        public NotationException(string code, string clause, string message)
            : base(Status.BadNotation, code, clause, message) { }
    }

    /// <summary>An unknown game, bot, option or argument, or options that are not JSON.</summary>
    public class OptionException : DiaboloException
    {
        public OptionException(string code, string clause, string message)
            : base(Status.BadOption, code, clause, message) { }
    }

    /// <summary>State JSON, a deal or a word list that is not one of the game.</summary>
    public class StateFormatException : DiaboloException
    {
        public StateFormatException(string code, string clause, string message)
            : base(Status.BadState, code, clause, message) { }
    }

    /// <summary>No such seat.</summary>
    public class PlayerException : DiaboloException
    {
        public PlayerException(string code, string clause, string message)
            : base(Status.BadPlayer, code, clause, message) { }
    }

    /// <summary>Work past one of the engine's documented limits.</summary>
    public class LimitException : DiaboloException
    {
        public LimitException(string code, string clause, string message)
            : base(Status.Limit, code, clause, message) { }
    }
}
