/// The package's release, in one place: the hook sends it in its session line (`"hook"`), `coordlens --version` prints
/// it, and CHANGELOG.md's newest heading and `api/releases/` name it (RELEASING.md).
public enum PackageVersion {
    /// Semantic versioning: a minor release may add API, only a major one may break it.
    public static let current = "0.1.0"
}
