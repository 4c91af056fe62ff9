//! The text the deflated engine is carried as, inside a block comment of the page bundle: seven
//! characters of [`ALPHABET`] for every six bytes, where base64 spends eight.
//!
//! Every document and frame parses the bundle before its own scripts, and what the comment costs
//! grows with its length in characters. A character per byte (Latin-1) would be denser still,
//! but one character above U+007F in the script made it cost more than the whole comment
//! (docs/speed.md): past the protocol, such a script is no longer held as one byte a
//! character. So the characters stay ASCII, and the alphabet leaves out what a reader of the
//! bundle or the scanner treats specially:
//! - `/`, so that `*/` can never end the comment early;
//! - NUL;
//! - every character Python or JavaScript counts as a line break (LF, VT, FF, CR and the
//!   separators U+001C to U+001E): Python reads the bundle with universal newlines, which would
//!   turn a CR into an LF, and V8 scans the rest of a comment more slowly after a line break;
//! - `<`, so that the bundle can sit inside an HTML `<script>` element.
//!
//! That leaves 117 characters, and 117⁷ ≥ 2⁴⁸: six bytes, read as a little-endian number, are
//! written as seven digits in base 117, least significant first. The last `k` bytes (k < 6)
//! take `k + 1` digits. Decoding refuses a character outside the alphabet, a group whose value
//! does not fit its bytes and an output of another length; nothing panics on input.

/// The digits, in order: ASCII from U+0001 to U+007E without the characters listed above.
pub const ALPHABET: [u8; BASE as usize] = alphabet();

const BASE: u64 = 117;
const LEFT_OUT: [u8; 9] = [0x0a, 0x0b, 0x0c, 0x0d, 0x1c, 0x1d, 0x1e, b'/', b'<'];
const NOT_A_DIGIT: u8 = 0xff;
/// The digit of every byte, NOT_A_DIGIT for those outside the alphabet.
const DIGITS: [u8; 256] = digits();

const fn alphabet() -> [u8; BASE as usize] {
    let mut out = [0; BASE as usize];
    let mut n = 0;
    let mut c = 1;
    while c < 0x7f {
        let mut kept = true;
        let mut i = 0;
        while i < LEFT_OUT.len() {
            if LEFT_OUT[i] == c {
                kept = false;
            }
            i += 1;
        }
        if kept {
            out[n] = c;
            n += 1;
        }
        c += 1;
    }
    assert!(n == BASE as usize);
    out
}

const fn digits() -> [u8; 256] {
    let mut out = [NOT_A_DIGIT; 256];
    let mut i = 0;
    while i < ALPHABET.len() {
        out[ALPHABET[i] as usize] = i as u8;
        i += 1;
    }
    out
}

/// The length of the text of `bytes` bytes.
pub const fn text_len(bytes: usize) -> usize {
    bytes + bytes.div_ceil(6)
}

/// The number of bytes a text of `chars` characters holds.
pub const fn bytes_len(chars: usize) -> usize {
    chars - chars.div_ceil(7)
}

/// Writes the text of `input` into `output`, which must be `text_len(input.len())` long.
pub fn encode(input: &[u8], output: &mut [u8]) -> Option<()> {
    if output.len() != text_len(input.len()) {
        return None;
    }
    for (group, out) in input.chunks(6).zip(output.chunks_mut(7)) {
        let mut value = 0u64;
        for (i, &byte) in group.iter().enumerate() {
            value |= u64::from(byte) << (8 * i);
        }
        for digit in out.iter_mut() {
            *digit = ALPHABET[(value % BASE) as usize];
            value /= BASE;
        }
    }
    Some(())
}

/// Reads the text `input` back into `output`, which must be `bytes_len(input.len())` long.
pub fn decode(input: &[u8], output: &mut [u8]) -> Option<()> {
    if input.len() % 7 == 1 || output.len() != bytes_len(input.len()) {
        return None;
    }
    // Whole groups in one pass without early exits (the module runs in V8's baseline tier,
    // where each branch and bounds check counts); a bad digit or value is noted and refused at
    // the end.
    let whole = input.len() / 7;
    let mut bad = 0u64;
    for (group, out) in input[..whole * 7]
        .chunks_exact(7)
        .zip(output[..whole * 6].chunks_exact_mut(6))
    {
        let d = |i: usize| u64::from(DIGITS[usize::from(group[i])]);
        let (d0, d1, d2, d3, d4, d5, d6) = (d(0), d(1), d(2), d(3), d(4), d(5), d(6));
        bad |= (d0 | d1 | d2 | d3 | d4 | d5 | d6) & 0x80;
        let value =
            (((((d6 * BASE + d5) * BASE + d4) * BASE + d3) * BASE + d2) * BASE + d1) * BASE + d0;
        bad |= value >> 48;
        out.copy_from_slice(&value.to_le_bytes()[..6]);
    }
    if bad != 0 {
        return None;
    }
    let (group, out) = (&input[whole * 7..], &mut output[whole * 6..]);
    let mut value = 0u64;
    for &c in group.iter().rev() {
        let digit = DIGITS[usize::from(c)];
        if digit == NOT_A_DIGIT {
            return None;
        }
        value = value * BASE + u64::from(digit);
    }
    if value >> (8 * out.len()) != 0 {
        return None;
    }
    out.copy_from_slice(&value.to_le_bytes()[..out.len()]);
    Some(())
}

#[cfg(test)]
mod tests {
    use super::{bytes_len, decode, encode, text_len, ALPHABET, LEFT_OUT};

    fn text(bytes: &[u8]) -> Vec<u8> {
        let mut out = vec![0; text_len(bytes.len())];
        encode(bytes, &mut out).unwrap();
        out
    }

    fn back(text: &[u8]) -> Option<Vec<u8>> {
        let mut out = vec![0; bytes_len(text.len())];
        decode(text, &mut out).map(|()| out)
    }

    #[test]
    fn seven_characters_for_six_bytes_and_back() {
        let mut state = 0x9e37_79b9_u32;
        let noise: Vec<u8> = (0..5_000)
            .map(|_| {
                state ^= state << 13;
                state ^= state >> 17;
                state ^= state << 5;
                state as u8
            })
            .collect();
        for len in [0, 1, 2, 5, 6, 7, 12, 13, 4_999, 5_000] {
            for data in [&noise[..len], &vec![0xff; len][..], &vec![0; len][..]] {
                let t = text(data);
                assert_eq!(t.len(), len + len.div_ceil(6), "len {len}");
                assert!(t.iter().all(|c| ALPHABET.contains(c)), "len {len}");
                assert_eq!(back(&t).as_deref(), Some(data), "len {len}");
            }
        }
    }

    #[test]
    fn the_alphabet_is_ascii_without_what_readers_treat_specially() {
        assert!(ALPHABET.windows(2).all(|w| w[0] < w[1]));
        assert!(ALPHABET.iter().all(|&c| (1..0x7f).contains(&c)));
        for c in LEFT_OUT.iter().chain(&[0, 0x7f]) {
            assert!(!ALPHABET.contains(c), "{c:#x}");
        }
        // Seven digits hold six bytes.
        assert!((ALPHABET.len() as u128).pow(7) >= 1 << 48);
    }

    #[test]
    fn refuses_what_no_text_of_bytes_is() {
        let t = text(b"prufe engine");
        // A character outside the alphabet.
        for bad in [b'/', b'<', b'\n', b'\r', 0, 0x80] {
            let mut damaged = t.clone();
            damaged[3] = bad;
            assert_eq!(back(&damaged), None, "{bad:#x}");
        }
        // The same in the last group, shorter than seven characters.
        let mut tail = text(b"prufe engine!");
        *tail.last_mut().unwrap() = b'/';
        assert_eq!(back(&tail), None);
        // A group whose value does not fit its bytes: the largest seven digits, the largest two.
        assert_eq!(back(&[ALPHABET[116]; 2]), None);
        assert_eq!(back(&[ALPHABET[116]; 7]), None);
        // A last group of one character holds no byte.
        assert_eq!(back(&t[..8]), None);
        // An output of another length.
        assert_eq!(decode(&t, &mut [0; 11]), None);
        assert_eq!(decode(&t, &mut [0; 13]), None);
    }
}
