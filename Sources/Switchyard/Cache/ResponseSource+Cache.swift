extension ResponseSource {
    /// An in-memory store answered (``MemoryResponseStore``).
    public static let memoryCache = ResponseSource("memory")
    /// A disk store answered (``DiskResponseStore``).
    public static let diskCache = ResponseSource("disk")
    /// A cached response was revalidated by the backend (`304 Not Modified`).
    public static let revalidated = ResponseSource("revalidated")
}
