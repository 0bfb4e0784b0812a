// The C API of diabolo (cpp/include/diabolo/diabolo.h) declared for P/Invoke. Text crosses as
// NUL-terminated UTF-8 byte arrays and IntPtr (Marshal.PtrToStringUTF8 is not in .NET
// Standard 2.0); handles cross as the SafeHandles of Handles.cs, so that a finalizer frees
// what Dispose did not. The library is "diabolo": libdiabolo.so, libdiabolo.dylib or
// diabolo.dll, found as the platform finds native libraries (Unity: Plugins/<platform>/).
using System;
using System.Runtime.InteropServices;
using System.Text;

namespace Diabolo
{
    [StructLayout(LayoutKind.Sequential)]
    internal struct NativeError
    {
        public int Status;

        [MarshalAs(UnmanagedType.ByValArray, SizeConst = 48)]
        public byte[] Code;

        [MarshalAs(UnmanagedType.ByValArray, SizeConst = 16)]
        public byte[] Clause;

        [MarshalAs(UnmanagedType.ByValArray, SizeConst = 512)]
        public byte[] Message;
    }

    internal static class Native
    {
        private const string Library = "diabolo";

        public const int Spectator = -1;
        public const int Simultaneous = -2;
        public const int Terminal = -4;
        public const int Wait = -1;

        [DllImport(Library, EntryPoint = "diabolo_version")]
        public static extern IntPtr Version();

        [DllImport(Library, EntryPoint = "diabolo_api_version")]
        public static extern int ApiVersion();

        [DllImport(Library, EntryPoint = "diabolo_games")]
        public static extern IntPtr Games();

        [DllImport(Library, EntryPoint = "diabolo_catalogue")]
        public static extern IntPtr Catalogue();

        [DllImport(Library, EntryPoint = "diabolo_game_new")]
        public static extern int GameNew(byte[] name, byte[] options, out GameHandle game, ref NativeError error);

        [DllImport(Library, EntryPoint = "diabolo_game_new_with_lexicon")]
        public static extern int GameNewWithLexicon(
            byte[] name, byte[] options, byte[] lexicon, UIntPtr size, out GameHandle game, ref NativeError error);

        [DllImport(Library, EntryPoint = "diabolo_game_free")]
        public static extern void GameFree(IntPtr game);

        [DllImport(Library, EntryPoint = "diabolo_game_players")]
        public static extern int GamePlayers(GameHandle game);

        [DllImport(Library, EntryPoint = "diabolo_game_num_actions")]
        public static extern int GameNumActions(GameHandle game);

        [DllImport(Library, EntryPoint = "diabolo_game_real_time")]
        public static extern int GameRealTime(GameHandle game);

        [DllImport(Library, EntryPoint = "diabolo_game_options")]
        public static extern IntPtr GameOptions(GameHandle game);

        [DllImport(Library, EntryPoint = "diabolo_game_bots")]
        public static extern IntPtr GameBots(GameHandle game);

        [DllImport(Library, EntryPoint = "diabolo_game_action_notation")]
        public static extern IntPtr GameActionNotation(GameHandle game, int action, ref NativeError error);

        [DllImport(Library, EntryPoint = "diabolo_state_new")]
        public static extern int StateNew(GameHandle game, ulong seed, out StateHandle state, ref NativeError error);

        [DllImport(Library, EntryPoint = "diabolo_state_deal")]
        public static extern int StateDeal(
            GameHandle game, ulong seed, byte[] deal, out StateHandle state, ref NativeError error);

        [DllImport(Library, EntryPoint = "diabolo_state_from_json")]
        public static extern int StateFromJson(GameHandle game, byte[] json, out StateHandle state, ref NativeError error);

        [DllImport(Library, EntryPoint = "diabolo_state_clone")]
        public static extern StateHandle StateClone(StateHandle state);

        [DllImport(Library, EntryPoint = "diabolo_state_free")]
        public static extern void StateFree(IntPtr state);

        [DllImport(Library, EntryPoint = "diabolo_state_current_player")]
        public static extern int StateCurrentPlayer(StateHandle state);

        [DllImport(Library, EntryPoint = "diabolo_state_pending_seats")]
        public static extern uint StatePendingSeats(StateHandle state);

        [DllImport(Library, EntryPoint = "diabolo_state_is_terminal")]
        public static extern int StateIsTerminal(StateHandle state);

        [DllImport(Library, EntryPoint = "diabolo_state_version")]
        public static extern ulong StateVersion(StateHandle state);

        [DllImport(Library, EntryPoint = "diabolo_state_legal_actions")]
        public static extern int StateLegalActions(StateHandle state, int player, int[] ids, int capacity);

        [DllImport(Library, EntryPoint = "diabolo_state_legal_mask")]
        public static extern int StateLegalMask(StateHandle state, int player, byte[] mask, int capacity);

        [DllImport(Library, EntryPoint = "diabolo_state_apply_action")]
        public static extern int StateApplyAction(StateHandle state, int player, int action, ref NativeError error);

        [DllImport(Library, EntryPoint = "diabolo_state_apply_move")]
        public static extern int StateApplyMove(StateHandle state, int player, byte[] notation, ref NativeError error);

        [DllImport(Library, EntryPoint = "diabolo_state_scores")]
        public static extern int StateScores(StateHandle state, int[] scores, int capacity);

        [DllImport(Library, EntryPoint = "diabolo_state_observation_tensor")]
        public static extern int StateObservationTensor(StateHandle state, int player, float[] values, int capacity);

        [DllImport(Library, EntryPoint = "diabolo_state_observation")]
        public static extern IntPtr StateObservation(StateHandle state, int player, ref NativeError error);

        [DllImport(Library, EntryPoint = "diabolo_state_events")]
        public static extern IntPtr StateEvents(StateHandle state, int player, ref NativeError error);

        [DllImport(Library, EntryPoint = "diabolo_state_to_json")]
        public static extern IntPtr StateToJson(StateHandle state);

        [DllImport(Library, EntryPoint = "diabolo_state_resample")]
        public static extern int StateResample(
            StateHandle state, int player, ulong seed, out StateHandle resampled, ref NativeError error);

        [DllImport(Library, EntryPoint = "diabolo_state_position")]
        public static extern int StatePosition(StateHandle state, out PositionHandle position, ref NativeError error);

        [DllImport(Library, EntryPoint = "diabolo_position_clone")]
        public static extern PositionHandle PositionClone(PositionHandle position);

        [DllImport(Library, EntryPoint = "diabolo_position_copy")]
        public static extern int PositionCopy(PositionHandle into, PositionHandle from, ref NativeError error);

        [DllImport(Library, EntryPoint = "diabolo_position_resample")]
        public static extern int PositionResample(
            PositionHandle from, int player, ulong seed, PositionHandle into, ref NativeError error);

        [DllImport(Library, EntryPoint = "diabolo_position_free")]
        public static extern void PositionFree(IntPtr position);

        [DllImport(Library, EntryPoint = "diabolo_position_current_player")]
        public static extern int PositionCurrentPlayer(PositionHandle position);

        [DllImport(Library, EntryPoint = "diabolo_position_pending_seats")]
        public static extern uint PositionPendingSeats(PositionHandle position);

        [DllImport(Library, EntryPoint = "diabolo_position_is_terminal")]
        public static extern int PositionIsTerminal(PositionHandle position);

        [DllImport(Library, EntryPoint = "diabolo_position_legal_actions")]
        public static extern int PositionLegalActions(PositionHandle position, int player, int[] ids, int capacity);

        [DllImport(Library, EntryPoint = "diabolo_position_apply_action")]
        public static extern int PositionApplyAction(
            PositionHandle position, int player, int action, ref NativeError error);

        [DllImport(Library, EntryPoint = "diabolo_position_scores")]
        public static extern int PositionScores(PositionHandle position, int[] scores, int capacity);

        [DllImport(Library, EntryPoint = "diabolo_play_random")]
        public static extern int PlayRandom(
            GameHandle game, int games, ulong seed, int threads, int[] scores, int[] moves, ref NativeError error);

        [DllImport(Library, EntryPoint = "diabolo_bot_new")]
        public static extern int BotNew(
            GameHandle game, byte[] kind, byte[] options, out BotHandle bot, ref NativeError error);

        [DllImport(Library, EntryPoint = "diabolo_bot_free")]
        public static extern void BotFree(IntPtr bot);

        [DllImport(Library, EntryPoint = "diabolo_bot_choose")]
        public static extern int BotChoose(
            BotHandle bot, StateHandle state, int player, ulong seed, out int action, out IntPtr notation,
            out long delayMicroseconds, ref NativeError error);

        [DllImport(Library, EntryPoint = "diabolo_string_free")]
        public static extern void StringFree(IntPtr text);

        /// <summary>A string as the C API takes it: UTF-8 with a NUL at the end (null stays null).</summary>
        public static byte[] Utf8(string text)
        {
            if (text == null) return null;
            if (text.IndexOf('\0') >= 0)
                throw new ArgumentException("text for the engine holds a NUL character: " + text);
            return Encoding.UTF8.GetBytes(text + "\0");
        }

        /// <summary>The UTF-8 text at a NUL-terminated pointer.</summary>
        public static string Text(IntPtr text)
        {
            if (text == IntPtr.Zero) return null;
            int length = 0;
            while (Marshal.ReadByte(text, length) != 0) ++length;
            var bytes = new byte[length];
            Marshal.Copy(text, bytes, 0, length);
            return Encoding.UTF8.GetString(bytes);
        }

        /// <summary>Takes a string the C API returned, freeing it; null is the error it filled.</summary>
        public static string OwnedText(IntPtr text, ref NativeError error)
        {
            if (text == IntPtr.Zero) throw DiaboloException.From(error.Status == 0 ? 8 : error.Status, error);
            try
            {
                return Text(text);
            }
            finally
            {
                StringFree(text);
            }
        }

        public static NativeError NewError()
        {
            return new NativeError { Code = new byte[48], Clause = new byte[16], Message = new byte[512] };
        }

        /// <summary>Throws the exception of a failed call's status.</summary>
        public static void Check(int status, ref NativeError error)
        {
            if (status != 0) throw DiaboloException.From(status, error);
        }
    }
}
