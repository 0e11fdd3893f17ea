//! Secret tokens (session cookies, password-reset links, ad tokens): 256 random bits,
//! handed out once in URL-safe base64 and stored only as their SHA-256 digest, so a
//! leaked database does not leak working tokens.

use base64::Engine;
use base64::engine::general_purpose::URL_SAFE_NO_PAD;
use rand::RngCore;
use sha2::{Digest, Sha256};

/// A fresh token: 32 bytes from a CSPRNG, URL-safe base64 (43 chars).
pub fn generate() -> String {
    let mut bytes = [0u8; 32];
    // `rand::rng()` is a ChaCha12 CSPRNG seeded (and periodically reseeded) from the OS.
    rand::rng().fill_bytes(&mut bytes);
    URL_SAFE_NO_PAD.encode(bytes)
}

/// The digest stored in the database for a token (lowercase hex SHA-256).
pub fn digest(token: &str) -> String {
    hex::encode(Sha256::digest(token.as_bytes()))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tokens_carry_256_bits_and_differ() {
        let a = generate();
        let b = generate();
        assert_eq!(URL_SAFE_NO_PAD.decode(&a).map(|v| v.len()).ok(), Some(32));
        assert_ne!(a, b);
    }

    #[test]
    fn digest_is_stable_and_hides_the_token() {
        let token = generate();
        assert_eq!(digest(&token), digest(&token));
        assert_eq!(digest(&token).len(), 64);
        assert!(!digest(&token).contains(&token));
    }
}
