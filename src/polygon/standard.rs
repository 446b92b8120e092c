//! testlib's standard checkers (`std::ncmp.cpp`, `std::lcmp.cpp`, ...) as duipai writes them:
//! testlib checkers of duipai's own that judge as the published ones do, for a package that
//! names one without carrying its file, and for packages duipai writes for other judges.

use std::path::{Path, PathBuf};

use anyhow::Context;
use sha2::{Digest, Sha256};

/// A standard checker.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Standard {
    Ncmp,
    Uncmp,
    Icmp,
    Wcmp,
    Lcmp,
    Fcmp,
    Rcmp4,
    Rcmp6,
    Rcmp9,
    Dcmp,
    Yesno,
    Nyesno,
    Hcmp,
}

impl Standard {
    pub const ALL: [Standard; 13] = [
        Standard::Ncmp,
        Standard::Uncmp,
        Standard::Icmp,
        Standard::Wcmp,
        Standard::Lcmp,
        Standard::Fcmp,
        Standard::Rcmp4,
        Standard::Rcmp6,
        Standard::Rcmp9,
        Standard::Dcmp,
        Standard::Yesno,
        Standard::Nyesno,
        Standard::Hcmp,
    ];

    /// Its file's stem: `ncmp`.
    pub fn stem(self) -> &'static str {
        match self {
            Standard::Ncmp => "ncmp",
            Standard::Uncmp => "uncmp",
            Standard::Icmp => "icmp",
            Standard::Wcmp => "wcmp",
            Standard::Lcmp => "lcmp",
            Standard::Fcmp => "fcmp",
            Standard::Rcmp4 => "rcmp4",
            Standard::Rcmp6 => "rcmp6",
            Standard::Rcmp9 => "rcmp9",
            Standard::Dcmp => "dcmp",
            Standard::Yesno => "yesno",
            Standard::Nyesno => "nyesno",
            Standard::Hcmp => "hcmp",
        }
    }

    /// How `problem.xml` names it: `std::ncmp.cpp`.
    pub fn polygon_name(self) -> String {
        format!("std::{}.cpp", self.stem())
    }

    /// The standard checker `problem.xml` names (`std::ncmp.cpp`, or `ncmp.cpp`).
    pub fn from_polygon_name(name: &str) -> Option<Standard> {
        let stem = name.strip_prefix("std::").unwrap_or(name);
        let stem = stem.strip_suffix(".cpp").unwrap_or(stem);
        Standard::ALL.into_iter().find(|s| s.stem() == stem)
    }

    /// The comparison of duipai's that judges as it does, as a setting (`tolerance`,
    /// `ignore-case`; nothing for comparing tokens exactly), for a package without testlib.h
    /// to build it with. `lcmp` and `fcmp` compare lines; duipai's comparison, tokens.
    pub fn comparison(self) -> Option<(&'static str, &'static str)> {
        match self {
            Standard::Rcmp4 => Some(("tolerance", "1e-4")),
            Standard::Rcmp6 | Standard::Dcmp => Some(("tolerance", "1e-6")),
            Standard::Rcmp9 => Some(("tolerance", "1e-9")),
            Standard::Yesno | Standard::Nyesno => Some(("ignore-case", "true")),
            _ => None,
        }
    }

    /// Its C++ source, a testlib checker.
    pub fn source(self) -> &'static str {
        match self {
            Standard::Ncmp => include_str!("standard/ncmp.cpp"),
            Standard::Uncmp => include_str!("standard/uncmp.cpp"),
            Standard::Icmp => include_str!("standard/icmp.cpp"),
            Standard::Wcmp => include_str!("standard/wcmp.cpp"),
            Standard::Lcmp => include_str!("standard/lcmp.cpp"),
            Standard::Fcmp => include_str!("standard/fcmp.cpp"),
            Standard::Rcmp4 => include_str!("standard/rcmp4.cpp"),
            Standard::Rcmp6 => include_str!("standard/rcmp6.cpp"),
            Standard::Rcmp9 => include_str!("standard/rcmp9.cpp"),
            Standard::Dcmp => include_str!("standard/dcmp.cpp"),
            Standard::Yesno => include_str!("standard/yesno.cpp"),
            Standard::Nyesno => include_str!("standard/nyesno.cpp"),
            Standard::Hcmp => include_str!("standard/hcmp.cpp"),
        }
    }

    /// Writes its source beside a copy of `testlib` in duipai's cache (a folder named by the
    /// hash of both, so that it is written once and never changes under a build) and
    /// returns the source's path.
    pub fn write_beside(self, testlib: &Path) -> anyhow::Result<PathBuf> {
        let header = crate::fsutil::read_file_capped(testlib)?;
        let mut hash = Sha256::new();
        hash.update(&header);
        hash.update(self.source().as_bytes());
        let digest = crate::text::hex(&hash.finalize()[..8]);
        let cache = crate::compile::default_cache_dir()?;
        let folder = cache.join(format!("polygon-{}-{digest}", self.stem()));
        let source = folder.join(format!("{}.cpp", self.stem()));
        if source.is_file() {
            return Ok(source);
        }
        std::fs::create_dir_all(&folder)
            .with_context(|| format!("creating {}", folder.display()))?;
        crate::fsutil::write_atomic(&folder.join("testlib.h"), &header)?;
        crate::fsutil::write_atomic(&source, self.source().as_bytes())?;
        Ok(source)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_round_trip() {
        for standard in Standard::ALL {
            assert_eq!(
                Standard::from_polygon_name(&standard.polygon_name()),
                Some(standard)
            );
            assert!(standard.source().contains("registerTestlibCmd"));
        }
        assert_eq!(
            Standard::from_polygon_name("lcmp.cpp"),
            Some(Standard::Lcmp)
        );
        assert_eq!(Standard::from_polygon_name("std::mine.cpp"), None);
    }
}
