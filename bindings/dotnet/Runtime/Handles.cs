// The C API's handles as SafeHandles: the runtime frees each exactly once, when it is
// disposed or, failing that, finalised, and never while a call is using it.
using System;
using Microsoft.Win32.SafeHandles;

namespace Diabolo
{
    internal sealed class GameHandle : SafeHandleZeroOrMinusOneIsInvalid
    {
        public GameHandle() : base(true) { }

        protected override bool ReleaseHandle()
        {
            Native.GameFree(handle);
            return true;
        }
    }

    internal sealed class StateHandle : SafeHandleZeroOrMinusOneIsInvalid
    {
        public StateHandle() : base(true) { }

        protected override bool ReleaseHandle()
        {
            Native.StateFree(handle);
            return true;
        }
    }

    internal sealed class PositionHandle : SafeHandleZeroOrMinusOneIsInvalid
    {
        public PositionHandle() : base(true) { }

        protected override bool ReleaseHandle()
        {
            Native.PositionFree(handle);
            return true;
        }
    }

    internal sealed class BotHandle : SafeHandleZeroOrMinusOneIsInvalid
    {
        public BotHandle() : base(true) { }

        protected override bool ReleaseHandle()
        {
            Native.BotFree(handle);
            return true;
        }
    }
}
