extension TokenAuthenticator {
    /// Holds the current access token and runs at most one refresh at a time.
    ///
    /// ```swift
    /// let store = TokenAuthenticator.Store(token: TokenAuthenticator.Token(savedAccessToken))
    /// await store.setToken(nil)        // after logging out
    /// ```
    ///
    /// Every change of the token (a refresh or ``setToken(_:)``) starts a new *generation*. A 401 for a token handed out
    /// in an older generation does not refresh again: it gets the newer token, or the error of the refresh that ended
    /// that generation.
    public actor Store {
        /// The current token, or `nil`.
        public private(set) var token: Token?
        /// How many refreshes have started (for diagnostics and tests).
        package private(set) var refreshCount = 0

        private var generation: UInt64 = 0
        private var inFlight: Task<Void, Never>?
        private var waiters: [UInt64: CheckedContinuation<Token, any Error>] = [:]
        private var nextWaiterID: UInt64 = 0
        private var lastFailure: (generation: UInt64, error: any Error)?
        private var refreshStarts: [ContinuousClock.Instant] = []

        /// Creates a store holding `token`.
        public init(token: Token? = nil) {
            self.token = token
        }

        /// Replaces the token (for example after a login), starting a new generation.
        public func setToken(_ token: Token?) {
            self.token = token
            generation &+= 1
            lastFailure = nil
        }

        /// The token and its generation.
        func current() -> (token: Token?, generation: UInt64) {
            (token, generation)
        }

        /// A token to retry with after `rejected`, handed out in generation `seenGeneration`, was refused: the newer token
        /// if there is one, the refresh in flight if there is one, or a new refresh (single flight, rate limited).
        func token(
            replacing rejected: Token?,
            seenGeneration: UInt64?,
            limit: RefreshLimit,
            now: ContinuousClock.Instant,
            refresh: @escaping @Sendable (Token?) async throws -> Token
        ) async throws -> Token {
            if inFlight != nil { return try await join() }
            if let seenGeneration, seenGeneration != generation {
                if let lastFailure, lastFailure.generation == generation { throw lastFailure.error }
                if let token { return token }
            }
            if seenGeneration == nil, let token, token != rejected { return token }

            refreshStarts.removeAll { now - $0 >= limit.window }
            guard refreshStarts.count < max(0, limit.maxRefreshes) else {
                throw RefreshLimitExceeded.refreshLimitExceeded(maxRefreshes: limit.maxRefreshes, window: limit.window)
            }
            refreshStarts.append(now)
            refreshCount += 1

            // The task installs the outcome itself (on this actor) before resuming the waiters, so no waiter retries
            // with the old token. Waiters are continuations, so a cancelled call stops waiting at once while the
            // refresh goes on for the others.
            inFlight = Task {
                do {
                    let fresh = try await TokenAuthenticator.$isRefreshing.withValue(true) {
                        try await refresh(rejected)
                    }
                    finishRefresh(.success(fresh))
                } catch {
                    finishRefresh(.failure(error))
                }
            }
            return try await join()
        }

        /// Waits for the refresh in flight; throws `CancellationError` as soon as the calling task is cancelled.
        private func join() async throws -> Token {
            nextWaiterID &+= 1
            let id = nextWaiterID
            return try await withTaskCancellationHandler {
                try await withCheckedThrowingContinuation { continuation in
                    if Task.isCancelled {
                        continuation.resume(throwing: CancellationError())
                    } else {
                        waiters[id] = continuation
                    }
                }
            } onCancel: {
                Task { await self.cancelWaiter(id) }
            }
        }

        private func cancelWaiter(_ id: UInt64) {
            waiters.removeValue(forKey: id)?.resume(throwing: CancellationError())
        }

        private func finishRefresh(_ outcome: Result<Token, any Error>) {
            generation &+= 1
            inFlight = nil
            switch outcome {
            case .success(let fresh):
                token = fresh
                lastFailure = nil
            case .failure(let error):
                lastFailure = (generation, error)
            }
            let resumed = waiters
            waiters.removeAll()
            for continuation in resumed.values { continuation.resume(with: outcome) }
        }
    }
}
