//! Programs that leave their process group (`setsid`, a double fork): duipai is a child
//! subreaper, so their orphaned processes become its children, and after every run the ones
//! that run started are killed and reaped.
//!
//! A run's processes are told apart by a token in their environment (`DUIPAI_RUN_ID`), which
//! children inherit: after a run, every child of duipai whose token is that of no run still
//! going is killed and reaped, and so on until none is left (killing an escapee orphans its
//! own children in turn). Processes without a token are never touched: they are not a run's,
//! or they cleared their environment, which this cannot see through.

use std::collections::HashSet;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Mutex, Once};

/// The environment variable that carries a run's token.
pub const ENV: &str = "DUIPAI_RUN_ID";

/// Tokens of the runs going on now.
static ACTIVE: Mutex<Vec<String>> = Mutex::new(Vec::new());
static NEXT: AtomicU64 = AtomicU64::new(1);
static SUBREAPER: Once = Once::new();

/// Makes duipai a child subreaper (once per process): orphans of its descendants are
/// reparented to it instead of to init.
pub fn become_subreaper() {
    SUBREAPER.call_once(|| {
        // SAFETY: PR_SET_CHILD_SUBREAPER takes an integer flag; no memory is passed.
        unsafe { libc::prctl(libc::PR_SET_CHILD_SUBREAPER, 1, 0, 0, 0) };
    });
}

/// One run's token, active from its creation until it is dropped.
pub struct Token {
    value: String,
}

impl Token {
    pub fn new() -> Token {
        let value = format!(
            "{}-{}",
            std::process::id(),
            NEXT.fetch_add(1, Ordering::Relaxed)
        );
        ACTIVE
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .push(value.clone());
        Token { value }
    }

    pub fn value(&self) -> &str {
        &self.value
    }
}

impl Default for Token {
    fn default() -> Self {
        Token::new()
    }
}

impl Drop for Token {
    fn drop(&mut self) {
        let mut active = ACTIVE.lock().unwrap_or_else(|e| e.into_inner());
        active.retain(|t| t != &self.value);
    }
}

/// Kills and reaps every child of duipai that carries `finished`'s token (or the token of
/// another run that has ended), repeatedly, until none is left. Returns how many processes
/// were killed.
pub fn clean_up(finished: &Token) -> usize {
    let mut killed = 0;
    // Each round kills the orphans seen; their own children become orphans for the next.
    for _ in 0..64 {
        let active: HashSet<String> = ACTIVE
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .iter()
            .filter(|t| *t != &finished.value)
            .cloned()
            .collect();
        let orphans: Vec<i32> = own_children()
            .into_iter()
            .filter(|&pid| token_of(pid).is_some_and(|t| !active.contains(&t)))
            .collect();
        if orphans.is_empty() {
            break;
        }
        for pid in orphans {
            // SAFETY: the pid is a child of this process, unreaped, so it names that child.
            unsafe { libc::kill(pid, libc::SIGKILL) };
            let mut status = 0;
            // SAFETY: waiting for one specific child; a valid pointer to a local.
            unsafe { libc::waitpid(pid, &mut status, 0) };
            killed += 1;
        }
    }
    killed
}

/// The children of this process, from `/proc/self/task/*/children`, or a scan of every
/// process's parent where the kernel lacks that file.
fn own_children() -> Vec<i32> {
    let mut out = Vec::new();
    let mut found_file = false;
    if let Ok(tasks) = std::fs::read_dir("/proc/self/task") {
        for task in tasks.flatten() {
            if let Ok(text) = std::fs::read_to_string(task.path().join("children")) {
                found_file = true;
                out.extend(
                    text.split_whitespace()
                        .filter_map(|p| p.parse::<i32>().ok()),
                );
            }
        }
    }
    if found_file {
        return out;
    }
    let me = std::process::id() as i32;
    let Ok(entries) = std::fs::read_dir("/proc") else {
        return out;
    };
    for entry in entries.flatten() {
        let name = entry.file_name();
        let Some(pid) = name.to_str().and_then(|n| n.parse::<i32>().ok()) else {
            continue;
        };
        if let Ok(text) = std::fs::read(entry.path().join("stat"))
            && let Some(stat) = super::procfs::parse_stat(&text)
            && stat.ppid == me
        {
            out.push(pid);
        }
    }
    out
}

/// The run token in a process's environment, if it has one and it can be read.
fn token_of(pid: i32) -> Option<String> {
    let environ = std::fs::read(format!("/proc/{pid}/environ")).ok()?;
    let prefix = format!("{ENV}=");
    environ
        .split(|&b| b == 0)
        .find_map(|var| var.strip_prefix(prefix.as_bytes()))
        .map(|v| String::from_utf8_lossy(v).into_owned())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tokens_are_unique_and_active_while_alive() {
        let a = Token::new();
        let b = Token::new();
        assert_ne!(a.value(), b.value());
        let active = || ACTIVE.lock().unwrap().clone();
        assert!(active().contains(&a.value().to_string()));
        let kept = b.value().to_string();
        drop(b);
        assert!(!active().contains(&kept));
    }

    #[test]
    fn this_process_has_no_token() {
        assert_eq!(token_of(std::process::id() as i32), None);
    }
}
