import ArgumentParser
import MotionDevices
import Render

extension SensorRequest: ExpressibleByArgument {
    public static var allValueStrings: [String] { forms }
    public static var defaultCompletionKind: CompletionKind { .list(forms) }
}

extension DisplaySelection: ExpressibleByArgument {
    public static var allValueStrings: [String] { forms }
    public static var defaultCompletionKind: CompletionKind { .list(forms) }
}
