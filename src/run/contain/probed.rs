//! The namespace probe's success, remembered from one duipai process to the next: starting a
//! throwaway keeper costs every command 3 to 4 ms of CPU (a PID, mount and network namespace
//! made and torn down, duipai's executable started), as much as the rest of a one-case
//! `duipai test`. What is kept is a key of everything the probe's answer depends on: the
//! user, the boot, the namespaces duipai itself runs in (another container is another
//! key), the kernel's limits on namespaces, duipai's executable and the temporary folder.
//! It is kept in one file per user in the temporary folder, `duipai-namespaces-UID`, read
//! only when it is a regular file of the user's own that no one else may write. A failure
//! is never kept, and a keeper that then fails to start forgets the key ([`forget`]).

use std::fs;
use std::io::{Read, Write};
use std::os::unix::fs::{MetadataExt, OpenOptionsExt, PermissionsExt};
use std::path::{Path, PathBuf};

use sha2::{Digest, Sha256};

/// The kernel's settings that allow or refuse namespaces to a user.
const SETTINGS: [&str; 7] = [
    "/proc/sys/kernel/unprivileged_userns_clone",
    "/proc/sys/kernel/apparmor_restrict_unprivileged_userns",
    "/proc/sys/user/max_user_namespaces",
    "/proc/sys/user/max_pid_namespaces",
    "/proc/sys/user/max_mnt_namespaces",
    "/proc/sys/user/max_net_namespaces",
    "/proc/sys/user/max_ipc_namespaces",
];

/// Whether a probe made here, as this user, with `userns`, succeeded before.
pub(super) fn succeeded_before(userns: bool) -> bool {
    key(userns).is_some_and(|key| holds(&file(), &key))
}

/// Keeps the success of a probe made with `userns`. Best effort: a temporary folder that
/// cannot be written only means probing again.
pub(super) fn remember(userns: bool) {
    if let Some(key) = key(userns) {
        keep(&file(), &key);
    }
}

/// Forgets a success kept before: the keeper it promised could not be started.
pub(crate) fn forget() {
    remove(&file());
}

/// Whether `path` is a regular file of this user's that no one else may write, holding `key`.
fn holds(path: &Path, key: &str) -> bool {
    let Ok(mut file) = fs::OpenOptions::new()
        .read(true)
        .custom_flags(libc::O_NOFOLLOW)
        .open(path)
    else {
        return false;
    };
    let Ok(meta) = file.metadata() else {
        return false;
    };
    if !meta.is_file() || meta.uid() != me() || meta.mode() & 0o022 != 0 {
        return false;
    }
    let mut kept = String::new();
    Read::by_ref(&mut file)
        .take(256)
        .read_to_string(&mut kept)
        .is_ok()
        && kept == key
}

/// Replaces `path` with a file of `key` (0600), atomically.
fn keep(path: &Path, key: &str) {
    let Some(dir) = path.parent() else {
        return;
    };
    let made = tempfile::Builder::new()
        .prefix(".duipai-namespaces-")
        .permissions(fs::Permissions::from_mode(0o600))
        .tempfile_in(dir);
    if let Ok(mut temporary) = made
        && temporary.write_all(key.as_bytes()).is_ok()
    {
        let _ = temporary.persist(path);
    }
}

/// Removes `path` when it is a regular file of this user's.
fn remove(path: &Path) {
    if fs::symlink_metadata(path).is_ok_and(|m| m.is_file() && m.uid() == me()) {
        let _ = fs::remove_file(path);
    }
}

fn me() -> u32 {
    // SAFETY: geteuid has no preconditions.
    unsafe { libc::geteuid() }
}

/// The file of this user's kept success.
fn file() -> PathBuf {
    std::env::temp_dir().join(format!("duipai-namespaces-{}", me()))
}

/// The key of a probe made now with `userns`; `None` when something it depends on cannot be
/// read (then nothing is kept or trusted).
fn key(userns: bool) -> Option<String> {
    let mut hasher = Sha256::new();
    let mut field = |bytes: &[u8]| {
        hasher.update((bytes.len() as u64).to_le_bytes());
        hasher.update(bytes);
    };
    // SAFETY: geteuid and getegid have no preconditions.
    let (uid, gid) = unsafe { (libc::geteuid(), libc::getegid()) };
    field(&uid.to_le_bytes());
    field(&gid.to_le_bytes());
    field(&[u8::from(userns)]);
    field(&fs::read("/proc/sys/kernel/random/boot_id").ok()?);
    for space in ["user", "mnt", "pid", "net", "ipc", "uts", "cgroup"] {
        let link = fs::read_link(format!("/proc/self/ns/{space}")).ok()?;
        field(link.as_os_str().as_encoded_bytes());
    }
    for setting in SETTINGS {
        field(&fs::read(setting).unwrap_or_else(|_| b"-".to_vec()));
    }
    let exe = fs::canonicalize(std::env::current_exe().ok()?).ok()?;
    field(&crate::fsutil::identity(&exe, &fs::metadata(&exe).ok()?));
    field(std::env::temp_dir().as_os_str().as_encoded_bytes());
    Some(crate::text::hex(&hasher.finalize()))
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A kept success is trusted only as the user's own file, written by no one else, with
    /// the key of here and now. (In a folder of the test's own: the user's real file is
    /// written by every duipai that runs meanwhile.)
    #[test]
    fn a_success_is_trusted_only_with_this_key_in_a_file_of_ones_own() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("duipai-namespaces");
        let (now, other) = (key(false).unwrap(), key(true).unwrap());
        assert_ne!(now, other, "the user namespace is part of the key");
        assert!(!holds(&path, &now));
        keep(&path, &now);
        assert_eq!(fs::metadata(&path).unwrap().mode() & 0o777, 0o600);
        assert!(holds(&path, &now));
        assert!(!holds(&path, &other), "another probe's key");
        fs::set_permissions(&path, fs::Permissions::from_mode(0o666)).unwrap();
        assert!(!holds(&path, &now), "a file others may write");
        fs::set_permissions(&path, fs::Permissions::from_mode(0o600)).unwrap();
        let link = dir.path().join("link");
        std::os::unix::fs::symlink(&path, &link).unwrap();
        assert!(!holds(&link, &now), "a link");
        remove(&path);
        assert!(!path.exists());
        assert!(!holds(&path, &now));
        // The same circumstances make the same key.
        assert_eq!(key(false).unwrap(), now);
    }
}
