//! A raw DEFLATE (RFC 1951) decoder and the reader of the text the deflated engine is carried
//! as ([`text`]), compiled to a wasm module of a few kilobytes that the
//! page bundle (`js/src/shim.js`) instantiates synchronously to unpack the engine's wasm,
//! which `js/build.mjs` inlines deflated: 0.4 of the bytes, and the decoder runs at compiled
//! speed where the same decoder in JavaScript, run cold at injection, takes several times as
//! long.
//!
//! Huffman codes are decoded through one lookup table per code, indexed by the next
//! `longest length` bits of input (bit-reversed, as DEFLATE stores codes). Input that is not
//! valid DEFLATE, or that would not fill the output exactly, makes [`inflate`] return `None`;
//! nothing panics on input.

#![cfg_attr(target_arch = "wasm32", no_std)]

pub mod text;

// RFC 1951 §3.2.5: lengths and distances of the length/literal symbols 257..285 and the
// distance symbols 0..29, and §3.2.7: the order of the code length code lengths.
const LENGTH_BASE: [u16; 29] = [
    3, 4, 5, 6, 7, 8, 9, 10, 11, 13, 15, 17, 19, 23, 27, 31, 35, 43, 51, 59, 67, 83, 99, 115, 131,
    163, 195, 227, 258,
];
const LENGTH_EXTRA: [u8; 29] = [
    0, 0, 0, 0, 0, 0, 0, 0, 1, 1, 1, 1, 2, 2, 2, 2, 3, 3, 3, 3, 4, 4, 4, 4, 5, 5, 5, 5, 0,
];
const DISTANCE_BASE: [u16; 30] = [
    1, 2, 3, 4, 5, 7, 9, 13, 17, 25, 33, 49, 65, 97, 129, 193, 257, 385, 513, 769, 1025, 1537,
    2049, 3073, 4097, 6145, 8193, 12289, 16385, 24577,
];
const DISTANCE_EXTRA: [u8; 30] = [
    0, 0, 0, 0, 1, 1, 2, 2, 3, 3, 4, 4, 5, 5, 6, 6, 7, 7, 8, 8, 9, 9, 10, 10, 11, 11, 12, 12, 13,
    13,
];
const CODE_LENGTH_ORDER: [u8; 19] = [
    16, 17, 18, 0, 8, 7, 9, 6, 10, 5, 11, 4, 12, 3, 13, 2, 14, 1, 15,
];

/// Entries of a lookup table: `symbol << 4 | code length`; 0 marks a hole (invalid input).
type Table = [u16; 1 << 15];

struct Bits<'a> {
    input: &'a [u8],
    at: usize,
    buffer: u64,
    count: u32,
}

impl Bits<'_> {
    /// At least 56 bits in the buffer (zeros past the end of the input; `past_end` tells).
    #[inline(always)]
    fn fill(&mut self) {
        if let Some(word) = self.input.get(self.at..self.at + 8) {
            let word = u64::from_le_bytes([
                word[0], word[1], word[2], word[3], word[4], word[5], word[6], word[7],
            ]);
            self.buffer |= word << self.count;
            self.at += ((63 - self.count) / 8) as usize;
            self.count |= 56;
            return;
        }
        while self.count <= 56 {
            let byte = self.input.get(self.at).copied().unwrap_or(0);
            self.at += 1;
            self.buffer |= u64::from(byte) << self.count;
            self.count += 8;
        }
    }

    /// The next `n` bits (n ≤ 16); the caller made sure the buffer holds them.
    #[inline(always)]
    fn bits(&mut self, n: u32) -> u32 {
        let value = (self.buffer & ((1u64 << n) - 1)) as u32;
        self.buffer >>= n;
        self.count -= n;
        value
    }

    #[inline(always)]
    fn take(&mut self, n: u32) -> u32 {
        if self.count < n {
            self.fill();
        }
        self.bits(n)
    }

    /// One symbol through `table` (read with `mask`); the caller made sure of 15 bits.
    #[inline(always)]
    fn code(&mut self, table: &Table, mask: u64) -> u32 {
        let entry = table[(self.buffer & mask) as usize & 0x7fff];
        let length = u32::from(entry & 15);
        self.buffer >>= length;
        // A hole (length 0) leaves `count` as is and yields symbol 0: callers reject it
        // through the entry, which is 0 only for holes.
        self.count -= length;
        u32::from(entry)
    }

    #[inline(always)]
    fn symbol(&mut self, table: &Table, mask: u64) -> Option<usize> {
        if self.count < 15 {
            self.fill();
        }
        match self.code(table, mask) {
            0 => None,
            entry => Some((entry >> 4) as usize),
        }
    }

    /// Whether more bits were consumed than the input holds.
    fn past_end(&self) -> bool {
        self.at * 8 > self.input.len() * 8 + self.count as usize
    }
}

/// Fills `table` for the code with these lengths; returns the mask of the bits a lookup
/// reads (as many as the longest length), or `None` for an oversubscribed code.
fn build(lengths: &[u8], table: &mut Table) -> Option<u64> {
    let mut count = [0u16; 16];
    for &l in lengths {
        count[usize::from(l)] += 1;
    }
    count[0] = 0;
    let longest = (1..16).rev().find(|&b| count[b] > 0).unwrap_or(0);
    let mut next = [0u32; 16];
    let mut code = 0u32;
    for b in 1..=longest {
        code = (code + u32::from(count[b - 1])) << 1;
        next[b] = code;
        if code + u32::from(count[b]) > 1 << b {
            return None;
        }
    }
    let size = 1usize << longest;
    table[..size].fill(0);
    for (symbol, &l) in lengths.iter().enumerate() {
        if l == 0 {
            continue;
        }
        let l = usize::from(l);
        let c = next[l];
        next[l] += 1;
        let mut slot = (c.reverse_bits() >> (32 - l)) as usize;
        while slot < size {
            table[slot] = (symbol as u16) << 4 | l as u16;
            slot += 1 << l;
        }
    }
    Some((1u64 << longest) - 1)
}

/// Decodes the raw DEFLATE stream `input` into `output`, which it must fill exactly.
pub fn inflate(input: &[u8], output: &mut [u8]) -> Option<()> {
    let mut bits = Bits {
        input,
        at: 0,
        buffer: 0,
        count: 0,
    };
    let mut literals: Table = [0; 1 << 15];
    let mut distances: Table = [0; 1 << 15];
    let mut out = 0usize;
    loop {
        let last = bits.take(1);
        let (literal_bits, distance_bits) = match bits.take(2) {
            0 => {
                // A stored block: whole bytes from the next byte boundary on.
                let skip = bits.count % 8;
                bits.take(skip);
                let length = bits.take(16) as usize;
                if bits.take(16) as usize != !length & 0xffff {
                    return None;
                }
                for _ in 0..length {
                    *output.get_mut(out)? = bits.take(8) as u8;
                    out += 1;
                }
                if last == 1 {
                    break;
                }
                continue;
            }
            1 => {
                let mut lengths = [0u8; 288 + 30];
                for (i, l) in lengths.iter_mut().enumerate() {
                    *l = match i {
                        0..=143 => 8,
                        144..=255 => 9,
                        256..=279 => 7,
                        280..=287 => 8,
                        _ => 5,
                    };
                }
                (
                    build(&lengths[..288], &mut literals)?,
                    build(&lengths[288..], &mut distances)?,
                )
            }
            2 => {
                let literal_count = bits.take(5) as usize + 257;
                let distance_count = bits.take(5) as usize + 1;
                let code_count = bits.take(4) as usize + 4;
                let mut code_lengths = [0u8; 19];
                for &i in &CODE_LENGTH_ORDER[..code_count] {
                    code_lengths[usize::from(i)] = bits.take(3) as u8;
                }
                let code_bits = build(&code_lengths, &mut literals)?;
                let mut lengths = [0u8; 286 + 30];
                let total = literal_count + distance_count;
                let mut i = 0;
                while i < total {
                    let symbol = bits.symbol(&literals, code_bits)?;
                    let (value, times) = match symbol {
                        0..=15 => (symbol as u8, 1),
                        16 => (*lengths.get(i.checked_sub(1)?)?, 3 + bits.take(2) as usize),
                        17 => (0, 3 + bits.take(3) as usize),
                        _ => (0, 11 + bits.take(7) as usize),
                    };
                    lengths.get_mut(i..i + times)?.fill(value);
                    i += times;
                }
                (
                    build(&lengths[..literal_count], &mut literals)?,
                    build(&lengths[literal_count..total], &mut distances)?,
                )
            }
            _ => return None,
        };
        loop {
            // 56 bits cover a length code, its extra bits, a distance code and its extra bits.
            if bits.count < 48 {
                bits.fill();
            }
            let entry = bits.code(&literals, literal_bits);
            let symbol = (entry >> 4) as usize;
            if symbol < 256 {
                if entry == 0 {
                    return None;
                }
                *output.get_mut(out)? = symbol as u8;
                out += 1;
                continue;
            }
            if symbol == 256 {
                break;
            }
            let s = symbol - 257;
            let length =
                usize::from(*LENGTH_BASE.get(s)?) + bits.bits(u32::from(LENGTH_EXTRA[s])) as usize;
            let entry = bits.code(&distances, distance_bits);
            let d = (entry >> 4) as usize;
            if entry == 0 || d >= 30 {
                return None;
            }
            let distance =
                usize::from(DISTANCE_BASE[d]) + bits.bits(u32::from(DISTANCE_EXTRA[d])) as usize;
            if distance > out || out + length > output.len() {
                return None;
            }
            // Byte by byte, not `copy_within`: matches are a few bytes long, and a
            // `memory.copy` per match costs more than the loop in a baseline-compiled module.
            let end = out + length;
            let window = &mut output[..end];
            let mut i = out;
            while i < end {
                window[i] = window[i - distance];
                i += 1;
            }
            out = end;
        }
        if last == 1 {
            break;
        }
    }
    (out == output.len() && !bits.past_end()).then_some(())
}

/// The wasm export: inflates `input_len` bytes at `input` into the `output_len` bytes at
/// `output` (both in this module's memory, which the caller grows and fills). Returns 1 when
/// the output was filled exactly, 0 otherwise.
///
/// # Safety
/// Both ranges must lie inside the module's memory and must not overlap.
#[cfg(target_arch = "wasm32")]
#[no_mangle]
pub unsafe extern "C" fn inflate_raw(
    input: *const u8,
    input_len: usize,
    output: *mut u8,
    output_len: usize,
) -> u32 {
    let input = unsafe { core::slice::from_raw_parts(input, input_len) };
    let output = unsafe { core::slice::from_raw_parts_mut(output, output_len) };
    u32::from(inflate(input, output).is_some())
}

/// The wasm export: the text of `input_len` bytes at `input` ([`text::encode`]) written to
/// the `output_len` bytes at `output`. Returns 1 when `output_len` is the text's length and the
/// text was written, 0 otherwise. Used by js/build.mjs only.
///
/// # Safety
/// As for [`inflate_raw`].
#[cfg(target_arch = "wasm32")]
#[no_mangle]
pub unsafe extern "C" fn text_encode(
    input: *const u8,
    input_len: usize,
    output: *mut u8,
    output_len: usize,
) -> u32 {
    let input = unsafe { core::slice::from_raw_parts(input, input_len) };
    let output = unsafe { core::slice::from_raw_parts_mut(output, output_len) };
    u32::from(text::encode(input, output).is_some())
}

/// The wasm export: the `input_len` characters at `input` read back ([`text::decode`]) into the
/// `output_len` bytes at `output`. Returns 1 when the input is a text of exactly that many
/// bytes, 0 otherwise.
///
/// # Safety
/// As for [`inflate_raw`].
#[cfg(target_arch = "wasm32")]
#[no_mangle]
pub unsafe extern "C" fn text_decode(
    input: *const u8,
    input_len: usize,
    output: *mut u8,
    output_len: usize,
) -> u32 {
    let input = unsafe { core::slice::from_raw_parts(input, input_len) };
    let output = unsafe { core::slice::from_raw_parts_mut(output, output_len) };
    u32::from(text::decode(input, output).is_some())
}

#[cfg(target_arch = "wasm32")]
#[panic_handler]
fn panic(_: &core::panic::PanicInfo) -> ! {
    core::arch::wasm32::unreachable()
}

#[cfg(test)]
mod tests {
    use super::inflate;
    use miniz_oxide::deflate::compress_to_vec;

    /// Text, runs and pseudo-random bytes: literals, long and overlapping matches.
    fn sample(len: usize) -> Vec<u8> {
        let mut out = Vec::with_capacity(len);
        let mut state = 0x2545_f491_u32;
        while out.len() < len {
            out.extend_from_slice(b"(func $walk (param i32) (result i32) local.get 0) ");
            out.extend(std::iter::repeat_n(b'a', 300));
            for _ in 0..64 {
                state ^= state << 13;
                state ^= state >> 17;
                state ^= state << 5;
                out.push(state as u8);
            }
        }
        out.truncate(len);
        out
    }

    fn round_trip(data: &[u8], level: u8) -> Option<Vec<u8>> {
        let packed = compress_to_vec(data, level);
        let mut out = vec![0; data.len()];
        inflate(&packed, &mut out).map(|()| out)
    }

    #[test]
    fn gives_back_what_was_deflated_with_every_block_type() {
        let mut types = [false; 3];
        for (len, level) in [
            (0, 6),
            (1, 1),
            (20, 9),
            (70_000, 0),
            (5_000, 1),
            (300_000, 6),
            (300_000, 9),
        ] {
            let data = sample(len);
            let packed = compress_to_vec(&data, level);
            // The first block's type: stored, fixed codes or dynamic codes.
            types[usize::from(packed[0] >> 1 & 3)] = true;
            assert_eq!(
                round_trip(&data, level).as_deref(),
                Some(&data[..]),
                "len {len}, level {level}"
            );
        }
        assert_eq!(types, [true; 3]);
    }

    #[test]
    fn refuses_an_output_of_another_size() {
        let data = sample(10_000);
        let packed = compress_to_vec(&data, 9);
        assert_eq!(inflate(&packed, &mut vec![0; data.len() - 1]), None);
        assert_eq!(inflate(&packed, &mut vec![0; data.len() + 1]), None);
    }

    #[test]
    fn refuses_truncated_or_damaged_input() {
        let data = sample(50_000);
        let packed = compress_to_vec(&data, 9);
        let mut out = vec![0; data.len()];
        assert_eq!(inflate(&packed[..packed.len() / 2], &mut out), None);
        let mut damaged = packed.clone();
        damaged[0] |= 0b110; // block type 3, reserved
        assert_eq!(inflate(&damaged, &mut out), None);
        // Flipping bits anywhere never panics, and never passes for the original.
        for at in (0..packed.len()).step_by(97) {
            let mut flipped = packed.clone();
            flipped[at] ^= 0x5a;
            if inflate(&flipped, &mut out).is_some() {
                assert_ne!(out, data, "a flip at {at} went unnoticed");
            }
        }
    }
}
