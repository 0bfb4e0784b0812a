"""Independent pure-Python reference models used to differential-test the C++ engine."""
