import SyncEngine
import Testing

@Suite("The speed-ups' switch")
struct SpeedUpsTests {
    @Test func theSwitchNamesAllNoneOrEachOne() {
        #expect(SpeedUps.configured(nil) == .all && SpeedUps.configured("") == .all && SpeedUps.configured("all") == .all)
        #expect(SpeedUps.configured("none") == [])
        #expect(SpeedUps.configured("-write-behind") == SpeedUps.all.subtracting(.writeBehind))
        #expect(SpeedUps.configured("-read-ahead,-chain-lookahead") == [.writeBehind, .transferLoop, .rawCacheLookups, .libdeflate, .recordReadAhead])
        #expect(SpeedUps.configured("write-behind, transfer-loop") == [.writeBehind, .transferLoop])
        #expect(SpeedUps.configured("warp-drive") == nil)
        #expect(SpeedUps.names.count == 7 && SpeedUps.names.reduce(SpeedUps()) { $0.union($1.speedUp) } == .all)
    }
}
