"""What the tests share, and the benchmarks with them: generated positions and collection files,
the published examples, one way to run ``gbr-tui`` as a user does, and helpers that read the
app's screen. Test modules import from here, never from one another."""
