//! A pool of folders a thread takes for a run and gives back (the scratch folders, the
//! helpers' folder pairs): each is kept for the thread that used it last while that thread
//! lives, so that its view (and the namespaces made for it) stays the same from one run to
//! the next, and goes to any thread once that thread has ended (the workers of each
//! minimization batch are new threads). What stays idle is removed when the process exits.
//! Off Unix nothing is pooled: no view binds the folders.
#![cfg_attr(not(unix), allow(dead_code))]

use std::sync::{Arc, Mutex, Once, Weak};

thread_local! {
    /// This thread, as long as it lives.
    static ME: Arc<()> = Arc::new(());
}

/// The idle ones, each with the thread that used it last.
pub(crate) struct Idle<T> {
    items: Mutex<Vec<(Weak<()>, T)>>,
    at_exit: Once,
}

impl<T> Idle<T> {
    pub(crate) const fn new() -> Self {
        Idle {
            items: Mutex::new(Vec::new()),
            at_exit: Once::new(),
        }
    }

    /// The one this thread used last, else one whose last user has ended.
    pub(crate) fn take(&self) -> Option<T> {
        let me = ME.try_with(Arc::downgrade).ok();
        let mut items = self.items.lock().unwrap_or_else(|e| e.into_inner());
        let at = me
            .and_then(|me| items.iter().position(|(user, _)| user.ptr_eq(&me)))
            .or_else(|| items.iter().position(|(user, _)| user.strong_count() == 0))?;
        Some(items.swap_remove(at).1)
    }

    /// Gives `item` back, as this thread's. The first time, `remove_at_exit` (a function that
    /// calls [`Idle::remove_at_exit`] on this pool) is registered to run when the process
    /// exits, whoever embeds the runner.
    #[cfg_attr(not(unix), allow(unused_variables))]
    pub(crate) fn give_back(&self, item: T, remove_at_exit: extern "C" fn()) {
        let me = ME.try_with(Arc::downgrade).unwrap_or_default();
        self.items
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .push((me, item));
        // SAFETY: registers a function of no arguments that does not unwind.
        #[cfg(unix)]
        self.at_exit.call_once(|| unsafe {
            libc::atexit(remove_at_exit);
        });
    }

    /// Removes the idle ones: for a harness that is done.
    pub(crate) fn remove_all(&self) {
        drop(std::mem::take(
            &mut *self.items.lock().unwrap_or_else(|e| e.into_inner()),
        ));
    }

    /// Removes the idle ones as the process exits: never waits (a thread still running may
    /// hold the lock) and never unwinds.
    pub(crate) fn remove_at_exit(&self) {
        if let Ok(mut items) = self.items.try_lock() {
            let _ = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
                drop(std::mem::take(&mut *items));
            }));
        }
    }
}
