import ArgumentParser
import MotionDevices

extension SensorRequest: ExpressibleByArgument {
    public static var allValueStrings: [String] { forms }
    public static var defaultCompletionKind: CompletionKind { .list(forms) }
}
