import ArgumentParser
import Motion

/// What `--source` asks for.
enum SourceChoice: String, ExpressibleByArgument, CaseIterable {
    /// The best sensor found; the simulated board when there is none.
    case auto
    /// The simulated board, tilted from the keyboard.
    case sim

    static var allValueStrings: [String] { allCases.map(\.rawValue) }
}

/// The source `play` uses and the line that tells the player which it is and why.
struct ChosenSource {
    let source: any MotionSource
    let description: String
}

extension SourceChoice {
    /// Builds the source. Reading IIO and evdev sensors is the next step
    /// (issues 3 and 4): until then a sensor found is named, and the simulated
    /// board is used, saying so.
    func makeSource(rate: Double) -> ChosenSource {
        let sim = SimulatedSource(rate: rate)
        switch self {
        case .sim:
            return ChosenSource(source: sim, description: "simulated board (--source sim)")
        case .auto:
            let found = SensorDiscovery.scan()
            if let first = found.first {
                return ChosenSource(source: sim, description:
                    "simulated board (found \(first.name), not readable yet)")
            }
            return ChosenSource(source: sim, description: "simulated board (no IMU found)")
        }
    }
}
