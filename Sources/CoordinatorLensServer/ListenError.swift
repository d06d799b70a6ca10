/// A problem that stops `listen` from starting.
package struct ListenError: Error, CustomStringConvertible {
    /// Says what could not be opened, the address or the recording file, and why.
    package var message: String
    package var description: String { message }
}
