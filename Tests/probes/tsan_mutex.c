/*
 * tsan_mutex.c — tells ThreadSanitizer about Swift's Synchronization.Mutex on Linux.
 *
 * Mutex locks and unlocks with an atomic compare-and-exchange inlined into the caller (which
 * TSan sees) and falls back to futex calls in libswiftSynchronization.so (which TSan does not
 * see) when the lock is contended. Without help, every contended lock hand-over looks like a
 * race on the data it guards. This library is LD_PRELOADed by `make sanitize` for the TSan runs
 * only: it interposes the two slow paths and adds the happens-before edge TSan missed
 * (__tsan_acquire after a slow lock, __tsan_release before a slow unlock) on the lock word, the
 * same address the inlined fast paths use. In a process without TSan the hooks are absent
 * (weak) and it only forwards the calls.
 */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

extern void __tsan_acquire(void *addr) __attribute__((weak));
extern void __tsan_release(void *addr) __attribute__((weak));

#define LOCK_SLOW "$s15Synchronization12_MutexHandleV9_lockSlowyys6UInt32VF"
#define UNLOCK_SLOW "$s15Synchronization12_MutexHandleV11_unlockSlowyyF"


/* `borrowing func _lockSlow(_ selfId: UInt32)`: selfId, then self (indirect) in the self
 * register (clang lowers swift_context to LLVM swiftself). */
typedef __attribute__((swiftcall)) void (*lock_fn)(uint32_t self_id, void *__attribute__((swift_context)) handle);
/* `borrowing func _unlockSlow()`: only self. */
typedef __attribute__((swiftcall)) void (*unlock_fn)(void *__attribute__((swift_context)) handle);

static void *next_symbol(const char *name) {
    void *symbol = dlsym(RTLD_NEXT, name);
    if (symbol == NULL) {
        fprintf(stderr, "tsan_mutex: %s not found\n", name);
        abort();
    }
    return symbol;
}

__attribute__((swiftcall)) void coinfolio_tsan_lock_slow(uint32_t self_id, void *__attribute__((swift_context)) handle)
    __asm__(LOCK_SLOW);
__attribute__((swiftcall)) void coinfolio_tsan_lock_slow(uint32_t self_id, void *__attribute__((swift_context)) handle) {
    static lock_fn real;
    if (real == NULL)
        real = (lock_fn)next_symbol(LOCK_SLOW);
    real(self_id, handle);
    if (__tsan_acquire)
        __tsan_acquire(handle);
}

__attribute__((swiftcall)) void coinfolio_tsan_unlock_slow(void *__attribute__((swift_context)) handle) __asm__(UNLOCK_SLOW);
__attribute__((swiftcall)) void coinfolio_tsan_unlock_slow(void *__attribute__((swift_context)) handle) {
    static unlock_fn real;
    if (real == NULL)
        real = (unlock_fn)next_symbol(UNLOCK_SLOW);
    if (__tsan_release)
        __tsan_release(handle);
    real(handle);
}
