import Glibc

/// A mutex and a condition variable whose timed wait runs on `CLOCK_MONOTONIC`,
/// so setting the wall clock back never stretches a wait.
///
/// Written on pthreads because Foundation's `NSCondition` is not in
/// `FoundationEssentials`, which is all the library loads (the tool starts faster
/// without ICU), and waits on the wall clock besides.
///
/// `@unchecked Sendable`: the pthread objects are made for sharing between threads;
/// they live in memory of their own that never moves.
final class MonotonicCondition: @unchecked Sendable {
    private let mutex = UnsafeMutablePointer<pthread_mutex_t>.allocate(capacity: 1)
    private let condition = UnsafeMutablePointer<pthread_cond_t>.allocate(capacity: 1)

    init() {
        pthread_mutex_init(mutex, nil)
        var attributes = pthread_condattr_t()
        pthread_condattr_init(&attributes)
        pthread_condattr_setclock(&attributes, CLOCK_MONOTONIC)
        pthread_cond_init(condition, &attributes)
        pthread_condattr_destroy(&attributes)
    }

    deinit {
        pthread_cond_destroy(condition)
        pthread_mutex_destroy(mutex)
        condition.deallocate()
        mutex.deallocate()
    }

    func lock() { pthread_mutex_lock(mutex) }
    func unlock() { pthread_mutex_unlock(mutex) }
    func signal() { pthread_cond_signal(condition) }
    func broadcast() { pthread_cond_broadcast(condition) }

    /// Waits, with the lock held, until signalled (or woken spuriously).
    func wait() { pthread_cond_wait(condition, mutex) }

    /// Waits, with the lock held, until signalled, woken spuriously, or `duration` has passed.
    ///
    /// A wait longer than a day ends after a day (callers wait in a loop), so no
    /// duration can overflow the deadline's seconds.
    func wait(for duration: Duration) {
        var now = timespec()
        clock_gettime(CLOCK_MONOTONIC, &now)
        let (seconds, attoseconds) = min(max(duration, .zero), .seconds(86_400)).components
        var nanoseconds = Int(now.tv_nsec) + Int(attoseconds / 1_000_000_000)
        var end = timespec(tv_sec: now.tv_sec + Int(seconds) + nanoseconds / 1_000_000_000, tv_nsec: 0)
        nanoseconds %= 1_000_000_000
        end.tv_nsec = nanoseconds
        _ = pthread_cond_timedwait(condition, mutex, &end)
    }
}
