// Benchmarks: speed and memory of the protocol layers, measured outside the test suite.
print("no benchmarks yet")
