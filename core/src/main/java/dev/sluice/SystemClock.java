package dev.sluice;

/** {@link Clock#system()}: the one place the engine reads the system's time. */
enum SystemClock implements Clock {
    INSTANCE;

    @Override
    public long nanoTime() {
        return System.nanoTime();
    }
}
