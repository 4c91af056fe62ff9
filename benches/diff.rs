//! Times the diff of two generated 3,000-element snapshots (target: under 2 ms in release)
//! and, for scale, the fingerprint and a judge of the same pair. Prints medians in ms.
//!
//! Run with `cargo bench --bench diff`.

use prufe::core::diff::{diff, DiffOptions};
use prufe::core::fingerprint;
use prufe::core::judge::{judge, Action, ActionKind, JudgeOptions};
use prufe::core::{Element, Role, Snapshot, Text, TextKind, Tristate};
use std::hint::black_box;
use std::time::Instant;

const ELEMENTS: usize = 3_000;
const RUNS: usize = 301;

/// A deterministic pseudo-random sequence (xorshift), so every run measures the same pages.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0
    }

    fn below(&mut self, n: usize) -> usize {
        (self.next() % n as u64) as usize
    }
}

/// A shop-like page: product rows with buttons and links, form fields, checkboxes, spread
/// over regions and lists, with realistic name lengths.
fn page(rng: &mut Rng) -> Snapshot {
    let regions = [
        "main",
        "banner",
        "catalogue/list:products",
        "cart/list:items",
        "form[Checkout]",
        "frame[0]/main",
    ];
    let words = [
        "Shirt", "Trousers", "Hat", "Socks", "Jacket", "Scarf", "Gloves", "Boots",
    ];
    let sizes = ["XS", "S", "M", "L", "XL"];
    let elements = (0..ELEMENTS)
        .map(|i| {
            let product = format!(
                "{} {} {}",
                words[rng.below(words.len())],
                sizes[rng.below(sizes.len())],
                i
            );
            let region = regions[rng.below(regions.len())].to_owned();
            let base = Element {
                reference: format!("e{i}-k{}", rng.below(1000)),
                region,
                visible: rng.below(10) > 0,
                in_viewport: rng.below(3) == 0,
                ..Default::default()
            };
            match i % 5 {
                0 => Element {
                    role: Role::Button,
                    name: format!("Add {product}"),
                    ..base
                },
                1 => Element {
                    role: Role::Listitem,
                    text: Some(format!("{product} 19.99 EUR Remove {product}")),
                    ..base
                },
                2 => Element {
                    role: Role::Link,
                    name: product.clone(),
                    href: Some(format!("/p/{i}")),
                    ..base
                },
                3 => Element {
                    role: Role::Checkbox,
                    name: format!("Gift wrap {product}"),
                    checked: Some(Tristate::False),
                    ..base
                },
                _ => Element {
                    role: Role::Textbox,
                    name: format!("Note for {product}"),
                    value: Some(String::new()),
                    ..base
                },
            }
        })
        .collect();
    let texts = (0..100)
        .map(|i| Text {
            kind: TextKind::Paragraph,
            text: format!("Paragraph {i} about our shop"),
            region: "main".into(),
            frame: String::new(),
        })
        .collect();
    Snapshot {
        elements,
        texts,
        ..Default::default()
    }
}

/// The same page after some activity: a reorder, a few state changes, appearances and removals.
fn later(before: &Snapshot, rng: &mut Rng) -> Snapshot {
    let mut after = before.clone();
    let n = after.elements.len();
    for _ in 0..n / 10 {
        after.elements.swap(rng.below(n), rng.below(n));
    }
    for _ in 0..30 {
        let e = &mut after.elements[rng.below(n)];
        match e.role {
            Role::Checkbox => e.checked = Some(Tristate::True),
            Role::Textbox => e.value = Some("hello".into()),
            _ => e.visible = !e.visible,
        }
    }
    for i in 0..10 {
        after.elements.remove(rng.below(after.elements.len()));
        after.elements.push(Element {
            reference: format!("n{i}"),
            role: Role::Listitem,
            text: Some(format!("New item {i}")),
            region: "cart/list:items".into(),
            visible: true,
            ..Default::default()
        });
    }
    after.texts.push(Text {
        kind: TextKind::Status,
        text: "Added to cart".into(),
        region: "cart".into(),
        frame: String::new(),
    });
    after
}

fn median_ms(mut f: impl FnMut()) -> f64 {
    for _ in 0..10 {
        f();
    }
    let mut times: Vec<f64> = (0..RUNS)
        .map(|_| {
            let start = Instant::now();
            f();
            start.elapsed().as_secs_f64() * 1e3
        })
        .collect();
    times.sort_by(f64::total_cmp);
    times[RUNS / 2]
}

fn main() {
    let mut rng = Rng(0x5eed_1234_abcd_0001);
    let before = page(&mut rng);
    let after = later(&before, &mut rng);
    let opts = DiffOptions::default();
    let d = diff(&before, &after, &opts);
    assert!(!d.empty);
    println!(
        "diff bench: {} -> {} elements, {} differences ({} appeared, {} disappeared, {} changed, {} moved)",
        before.elements.len(),
        after.elements.len(),
        d.lines.len(),
        d.appeared.len(),
        d.disappeared.len(),
        d.changed.len(),
        d.moved.len()
    );
    let unchanged = median_ms(|| {
        black_box(diff(black_box(&before), black_box(&before), &opts));
    });
    let changed = median_ms(|| {
        black_box(diff(black_box(&before), black_box(&after), &opts));
    });
    let fp = median_ms(|| {
        black_box(fingerprint::of_snapshot(black_box(&after)));
    });
    let target = before
        .elements
        .iter()
        .find(|e| e.role == Role::Button)
        .cloned();
    let action = Action {
        kind: ActionKind::Click,
        target,
        value: None,
        value_hash: None,
        option: None,
        intent: None,
        key: None,
    };
    let judged = median_ms(|| {
        black_box(
            judge(
                black_box(&action),
                &before,
                &after,
                &JudgeOptions::default(),
            )
            .ok(),
        );
    });
    println!("diff, 3,000 elements, identical:    {unchanged:.3} ms (median of {RUNS})");
    println!(
        "diff, 3,000 elements, with changes: {changed:.3} ms (median of {RUNS}; target < 2 ms)"
    );
    println!("fingerprint, 3,000 elements:        {fp:.3} ms (median of {RUNS})");
    println!("judge a click, 3,000 elements:      {judged:.3} ms (median of {RUNS})");
}
