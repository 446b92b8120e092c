//! The portable random stream (ChaCha8 keyed by the seed) and the samplers built on its raw words.
//!
//! Only `next_u64` of the ChaCha8 keystream is used. Every sampler here is our own, so the
//! generated data depends on nothing but the ChaCha8 cipher and this file: rand's samplers
//! changed their output between releases, and `seed_from_u64` expands the seed in a way the
//! library is free to change.

use rand_chacha::ChaCha8Rng;
use rand_core::{Rng as _, SeedableRng};

/// A seeded random stream with bias-free samplers.
#[derive(Clone, Debug)]
pub struct Rng {
    inner: ChaCha8Rng,
}

impl Rng {
    /// The ChaCha8 key is the seed in little-endian order in bytes 0..8, zeros after it; the
    /// nonce (stream) and block counter start at zero.
    pub fn from_seed(seed: u64) -> Rng {
        Rng {
            inner: ChaCha8Rng::from_seed(seed_key(seed)),
        }
    }

    /// The next raw 64-bit word: keystream bytes taken eight at a time, little-endian.
    pub fn next_u64(&mut self) -> u64 {
        self.inner.next_u64()
    }

    /// Uniform in `0..n` (`n >= 1`), by rejection: words at or above the largest multiple of
    /// `n` that fits in 2^64 are redrawn, so every residue is equally likely.
    pub fn below(&mut self, n: u64) -> u64 {
        debug_assert!(n >= 1);
        let n = n.max(1);
        // 2^64 mod n, computed without overflow as (2^64 - n) mod n.
        let reject_from = u64::MAX - (n.wrapping_neg() % n);
        loop {
            let x = self.next_u64();
            // 0..=reject_from holds a whole number of n-blocks.
            if x <= reject_from {
                return x % n;
            }
        }
    }

    /// Uniform in `lo..=hi` over u64 (`lo <= hi`).
    pub fn range_u64(&mut self, lo: u64, hi: u64) -> u64 {
        debug_assert!(lo <= hi);
        let (lo, hi) = (lo.min(hi), lo.max(hi));
        match (hi - lo).checked_add(1) {
            Some(span) => lo + self.below(span),
            None => self.next_u64(),
        }
    }

    /// Uniform in `lo..=hi` for values (`0 <= lo <= hi`).
    pub fn range_i64(&mut self, lo: i64, hi: i64) -> i64 {
        let lo = lo.max(0);
        let hi = hi.max(lo);
        // Both are non-negative, so the casts are exact.
        self.range_u64(lo as u64, hi as u64) as i64
    }

    /// Uniform in `lo..=hi` for sizes and indices. The draw is made as a u64, never as a
    /// usize, so 32- and 64-bit machines see the same numbers.
    pub fn range_size(&mut self, lo: usize, hi: usize) -> usize {
        self.range_u64(lo as u64, hi.max(lo) as u64) as usize
    }

    /// True with probability `p / q` (`0 <= p <= q`, `q >= 1`).
    pub fn chance(&mut self, p: u64, q: u64) -> bool {
        self.below(q.max(1)) < p
    }

    /// A uniformly random permutation (Fisher–Yates, from the back).
    pub fn shuffle<T>(&mut self, items: &mut [T]) {
        for i in (1..items.len()).rev() {
            let j = self.range_size(0, i);
            items.swap(i, j);
        }
    }

    /// A uniformly chosen element, `None` for an empty slice.
    pub fn pick<'a, T>(&mut self, items: &'a [T]) -> Option<&'a T> {
        if items.is_empty() {
            None
        } else {
            items.get(self.range_size(0, items.len() - 1))
        }
    }
}

/// The 32-byte ChaCha8 key for a seed.
pub fn seed_key(seed: u64) -> [u8; 32] {
    let mut key = [0u8; 32];
    key[..8].copy_from_slice(&seed.to_le_bytes());
    key
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn below_covers_every_value_and_nothing_else() {
        let mut rng = Rng::from_seed(7);
        let mut seen = [0u32; 7];
        for _ in 0..7000 {
            seen[rng.below(7) as usize] += 1;
        }
        // Each residue expects 1000; 800 is more than 6 standard deviations away.
        assert!(seen.iter().all(|&c| c > 800), "{seen:?}");
    }

    #[test]
    fn ranges_stay_inside() {
        let mut rng = Rng::from_seed(3);
        for _ in 0..1000 {
            let v = rng.range_i64(5, 9);
            assert!((5..=9).contains(&v));
            assert_eq!(rng.range_size(4, 4), 4);
        }
        // The full u64 span takes the raw word.
        let mut a = Rng::from_seed(11);
        let mut b = Rng::from_seed(11);
        assert_eq!(a.range_u64(0, u64::MAX), b.next_u64());
    }

    #[test]
    fn rejection_redraws_the_biased_tail() {
        // With n = 2^63 + 1 only x <= 2^64 - 1 - (2^63 - 1) = 2^63 is accepted: about half
        // of the words are redrawn.
        let n = (1u64 << 63) + 1;
        let mut redraws = 0;
        for seed in 0..20 {
            let mut raw = Rng::from_seed(seed);
            let mut expected = raw.next_u64();
            while expected > (1u64 << 63) {
                redraws += 1;
                expected = raw.next_u64();
            }
            assert_eq!(Rng::from_seed(seed).below(n), expected % n, "seed {seed}");
        }
        assert!(redraws > 0);
    }

    #[test]
    fn shuffle_is_a_permutation() {
        let mut rng = Rng::from_seed(9);
        let mut v: Vec<u32> = (0..50).collect();
        rng.shuffle(&mut v);
        let mut sorted = v.clone();
        sorted.sort_unstable();
        assert_eq!(sorted, (0..50).collect::<Vec<_>>());
        assert_ne!(v, sorted);
        assert_eq!(Rng::from_seed(1).pick::<u8>(&[]), None);
    }
}
