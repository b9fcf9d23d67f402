/// What ``TokenAuthenticator`` remembers about each call in flight: the token its latest attempt carried, that
/// token's generation, and whether the call was already retried after a rejection.
///
/// Entries are removed when the call's response passes the authenticator; the registry is also capped, dropping the
/// oldest calls (whose ids are smallest), so calls that end elsewhere cannot make it grow without bound.
struct CallRegistry {
    struct CallState {
        var token: AuthToken?
        var generation: UInt64
        var retried = false
    }

    static let capacity = 4_096

    private var states: [UInt64: CallState] = [:]

    mutating func record(_ callID: UInt64, token: AuthToken?, generation: UInt64) {
        if var state = states[callID] {
            state.token = token
            state.generation = generation
            states[callID] = state
            return
        }
        if states.count >= Self.capacity, let oldest = states.keys.min() {
            states[oldest] = nil
        }
        states[callID] = CallState(token: token, generation: generation)
    }

    func state(of callID: UInt64) -> CallState? {
        states[callID]
    }

    mutating func markRetried(_ callID: UInt64) {
        states[callID]?.retried = true
    }

    mutating func remove(_ callID: UInt64) {
        states[callID] = nil
    }

    var count: Int { states.count }
}
