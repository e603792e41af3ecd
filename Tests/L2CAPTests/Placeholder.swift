// Placeholder until the module's tests land.
import Testing
@Test func placeholderL2CAPTests() {}
