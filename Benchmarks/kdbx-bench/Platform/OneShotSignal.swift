// Platform concern: blocking a thread until another signals it. A POSIX mutex and condition variable, which every
// C library has (unnamed semaphores, `sem_init`, fail with ENOSYS on Apple systems).
#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Bionic)
  import Bionic
#elseif canImport(Darwin)
  import Darwin
#endif

/// A signal sent once and waited for once, across threads.
final class OneShotSignal: @unchecked Sendable {
  // SAFETY: the mutex and condition live at fixed heap addresses for the object's life (pthread objects must not
  // move); `signalled` is read and written only with the mutex held.
  private let mutex = UnsafeMutablePointer<pthread_mutex_t>.allocate(capacity: 1)
  private let condition = UnsafeMutablePointer<pthread_cond_t>.allocate(capacity: 1)
  private var signalled = false

  init() {
    mutex.initialize(to: pthread_mutex_t())
    condition.initialize(to: pthread_cond_t())
    pthread_mutex_init(mutex, nil)
    pthread_cond_init(condition, nil)
  }

  deinit {
    pthread_cond_destroy(condition)
    pthread_mutex_destroy(mutex)
    condition.deallocate()
    mutex.deallocate()
  }

  /// Sends the signal (once; later calls change nothing).
  func signal() {
    pthread_mutex_lock(mutex)
    signalled = true
    pthread_cond_broadcast(condition)
    pthread_mutex_unlock(mutex)
  }

  /// Blocks this thread until the signal was sent. Never call it from a task of the cooperative pool.
  func wait() {
    pthread_mutex_lock(mutex)
    while !signalled { pthread_cond_wait(condition, mutex) }
    pthread_mutex_unlock(mutex)
  }
}
