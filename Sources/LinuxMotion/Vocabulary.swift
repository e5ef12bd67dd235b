// The types the API speaks in, so that `import LinuxMotion` is all a program
// needs: vectors, quaternions, samples, shakes and the neutral tilt
// (MotionCore, pure Swift), and the sensor request.
@_exported import MotionCore
import MotionDevices

/// Which sensor to read: `.auto` (the best found, else the simulated board),
/// `.iio(name)`, `.evdev(path)`, `.replay(file)` or `.sim`.
public typealias SensorRequest = MotionDevices.SensorRequest
