/// A problem that stops `listen` from starting.
public struct ListenError: Error, CustomStringConvertible {
    /// Says what could not be opened, the address or the recording file, and why.
    public var message: String
    public var description: String { message }
}
