// The libFuzzer entry points, compiled only into the fuzzing build (-DFUZZING with -sanitize=fuzzer).

#if FUZZING
import Glibc

/// The targets chosen once from OCB_FUZZ_TARGET.
let fuzzTargets = FuzzTarget.selected(getenv("OCB_FUZZ_TARGET").map { String(cString: $0) })

/// libFuzzer calls this once per input: the bytes go through every selected target.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzerTestOneInput(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    let bytes = data.map { Array(UnsafeBufferPointer(start: $0, count: size)) } ?? []
    for target in fuzzTargets { target.run(bytes) }
    return 0
}

/// libFuzzer's driver (compiler-rt FuzzerDriver.cpp): parses the libFuzzer flags and runs the callback.
@_silgen_name("LLVMFuzzerRunDriver")
func llvmFuzzerRunDriver(_ argc: UnsafeMutablePointer<CInt>,
                         _ argv: UnsafeMutablePointer<UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?>,
                         _ callback: @convention(c) (UnsafePointer<UInt8>?, Int) -> CInt) -> CInt

/// SwiftPM links an executable's `main` to `<module>_main`; here it hands the command line to libFuzzer's driver.
@_cdecl("FuzzHarness_main")
public func fuzzHarnessMain(_ argc: CInt, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?) -> CInt {
    var count = argc
    var arguments = argv
    return llvmFuzzerRunDriver(&count, &arguments) { data, size in fuzzerTestOneInput(data, size) }
}
#endif
