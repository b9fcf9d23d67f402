import Foundation

extension CacheInterceptor {
    /// Where a ``CacheInterceptor`` keeps responses: in memory or in a folder on disk, each bounded by bytes.
    ///
    /// ```swift
    /// apiClient.interceptors.append(CacheInterceptor(storage: .memory(maxBytes: 10 << 20)))
    /// let onDisk = CacheInterceptor.Storage.disk(directory: cachesFolder.appendingPathComponent("api"), maxBytes: 50 << 20)
    /// ```
    ///
    /// Copies share the store. Give each store its own folder; two storages (or two processes) on one folder share
    /// its entries.
    public struct Storage: Sendable {
        let store: any CacheStore

        /// An in-memory store holding at most `maxBytes` (bodies and header fields), the least recently used entry
        /// evicted first; an entry larger than the bound is not stored.
        public static func memory(maxBytes: Int) -> Storage {
            Storage(store: MemoryCacheStore(maxBytes: maxBytes))
        }

        /// A store in `directory` (created when needed) holding at most `maxBytes`: one file per entry, written
        /// atomically (a temporary file renamed into place), read back after a restart; a corrupt or truncated file is
        /// a miss and is deleted, and bodies are checked against a SHA-256 as they are read.
        public static func disk(directory: URL, maxBytes: Int) -> Storage {
            Storage(store: DiskCacheStore(directory: directory, maxBytes: maxBytes))
        }

        /// The bytes the store holds now (for a disk store: of the files it knows of).
        package var totalBytes: Int { store.totalBytes }

        /// Removes the stored responses of `url`, for every credential.
        package func removeResponses(for url: URL) {
            store.removeAll(url: CacheKey.normalized(url))
        }
    }
}
