// Local names as BlueZ shows them: NUL padding after the name dropped, the bytes kept as sent.

import OCBAdvertising
import Testing

@Suite struct AdvertisedNameTests {
    @Test func trailingNulsArePaddingInsideOnesStay() {
        // A Complete Local Name AD structure padded to a fixed length, as some firmware sends it.
        let padded = AdvertisingData(bytes: [0x0A, 0x09, 0x53, 0x65, 0x6E, 0x73, 0x6F, 0x72, 0x00, 0x00, 0x00])
        #expect(padded.localName == "Sensor")
        #expect(padded.localNameValue?.bytes == [0x53, 0x65, 0x6E, 0x73, 0x6F, 0x72, 0x00, 0x00, 0x00], "bytes as sent")
        #expect(AdvertisedName(bytes: [0x41, 0x00, 0x42, 0x00]).string == "A\u{0}B")
        #expect(AdvertisedName(bytes: [0x00, 0x00]).string == "")
        #expect(AdvertisedName(bytes: [0x41, 0xFF, 0x00]).string == "A\u{FFFD}", "invalid UTF-8 replaced, padding gone")
    }
}
