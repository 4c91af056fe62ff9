//! The pure half of the undo: which controls may take a wrong effect out, what of it is
//! left afterwards, and where the pointer goes to end a hover. The order the inverses are
//! tried in, and the undo itself, are in `undo`.

use super::point::Point;
use crate::core::diff::{self, Diff};
use crate::core::identity::Identity;
use crate::core::model::{Element, Role};
use crate::core::text::tokens;
use rustc_hash::FxHashSet;

/// Words that name a removal control, folded (case and accents removed), per language.
#[rustfmt::skip]
pub const REMOVAL_WORDS: &[&str] = &[
    "remove", "delete", "discard", "clear",
    "quitar", "eliminar", "borrar", "retirar",
    "supprimer", "retirer", "enlever",
    "entfernen", "loschen",
    "rimuovi", "elimina", "remover", "excluir",
];

/// Symbols that name a removal control on their own.
pub const REMOVAL_SYMBOLS: &[char] = &['×', '✕', '✖', '✗', '🗑'];

/// At most this many removal controls may have appeared for one to be clicked.
pub const MAX_REMOVAL_CONTROLS: usize = 2;

/// Does this name say "take it out"?
pub fn is_removal_name(name: &str) -> bool {
    name.chars().any(|c| REMOVAL_SYMBOLS.contains(&c))
        || tokens(name)
            .iter()
            .any(|t| REMOVAL_WORDS.contains(&t.as_str()))
}

/// The removal controls that appeared together with the wrong effect, in its region; none
/// when a part of the page came back with it (see the module docs).
pub fn removal_controls(d: &Diff) -> Vec<&Element> {
    let is_control =
        |e: &Element| matches!(e.role, Role::Button | Role::Link) && is_removal_name(e.label());
    let part_of_page = d.appeared.iter().any(|e| {
        e.role.is_landmark()
            || matches!(
                e.role,
                Role::Dialog | Role::Alertdialog | Role::Region | Role::Tabpanel
            )
    });
    if part_of_page || d.appeared.iter().filter(|e| is_control(e)).count() > MAX_REMOVAL_CONTROLS {
        return Vec::new();
    }
    let effect_regions: FxHashSet<&str> = d
        .appeared
        .iter()
        .filter(|e| !is_control(e))
        .map(|e| e.region.as_str())
        .chain(d.texts_appeared.iter().map(|t| t.region.as_str()))
        .collect();
    // A row that took the place of one that went (an edited row shown again) is no
    // addition: removing it would take out what was there before.
    let replaced: FxHashSet<&str> = d
        .disappeared
        .iter()
        .filter(|e| !is_control(e))
        .map(|e| e.region.as_str())
        .collect();
    d.appeared
        .iter()
        .filter(|e| {
            is_control(e)
                && e.visible
                && effect_regions.contains(e.region.as_str())
                && !replaced.contains(e.region.as_str())
        })
        .collect()
}

/// What of `wrong` is still there in `now` (a diff from the before snapshot).
pub fn residue(wrong: &Diff, now: &Diff) -> Vec<String> {
    let mut ids: FxHashSet<Identity> = FxHashSet::default();
    ids.extend(
        wrong
            .appeared
            .iter()
            .chain(&wrong.disappeared)
            .map(Identity::of),
    );
    for (b, a) in wrong
        .changed
        .iter()
        .map(|c| (&c.before, &c.after))
        .chain(wrong.moved.iter().map(|m| (&m.before, &m.after)))
    {
        ids.insert(Identity::of(b));
        ids.insert(Identity::of(a));
    }
    let touched = |e: &Element| ids.contains(&Identity::of(e));
    let mut out = Vec::new();
    out.extend(
        now.appeared
            .iter()
            .filter(|e| touched(e))
            .map(diff::line_appeared),
    );
    out.extend(
        now.disappeared
            .iter()
            .filter(|e| touched(e))
            .map(diff::line_disappeared),
    );
    out.extend(
        now.changed
            .iter()
            .filter(|c| touched(&c.before) || touched(&c.after))
            .map(diff::line_changed),
    );
    out.extend(
        now.moved
            .iter()
            .filter(|m| touched(&m.before) || touched(&m.after))
            .map(diff::line_moved),
    );
    out
}

/// A point away from `p`, near the top-left corner and off the hovered element.
pub fn away_from(p: Point) -> Point {
    if p.x < 40.0 && p.y < 40.0 {
        Point {
            x: p.x + 400.0,
            y: p.y + 400.0,
        }
    } else {
        Point { x: 1.0, y: 1.0 }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::core::testing::{el, item, text};

    #[test]
    fn removal_names_in_several_languages() {
        #[rustfmt::skip]
        let cases = [
            ("Remove Trousers L", true), ("Quitar Pantalón L", true), ("Eliminar", true),
            ("Supprimer l'article", true), ("Entfernen", true), ("Löschen", true), ("×", true),
            ("Delete item", true), ("Add Trousers L", false), ("Removed", false),
            ("Close", false), ("Remote control", false),
        ];
        for (name, yes) in cases {
            assert_eq!(is_removal_name(name), yes, "{name}");
        }
    }

    #[test]
    fn only_removal_controls_in_the_effects_region_are_used() {
        let cart = "cart/list:cart-items";
        let d = Diff {
            appeared: vec![
                item("i1", "Trousers L", cart),
                el("r1", Role::Button, "Remove Trousers L", cart),
                el("r2", Role::Button, "Delete account", "settings"),
            ],
            ..Default::default()
        };
        let found: Vec<_> = removal_controls(&d)
            .iter()
            .map(|e| e.name.clone())
            .collect();
        assert_eq!(found, ["Remove Trousers L"]);
        let lone = Diff {
            appeared: vec![el("r3", Role::Button, "Delete everything", "footer")],
            ..Default::default()
        };
        assert!(removal_controls(&lone).is_empty(), "no effect beside it");
        let toast = Diff {
            appeared: vec![el("x", Role::Button, "×", "toast")],
            texts_appeared: vec![text("Coupon applied", "toast")],
            ..Default::default()
        };
        assert_eq!(removal_controls(&toast).len(), 1, "a text is an effect");
        let veil_lifted = Diff {
            appeared: vec![
                el("g", Role::Region, "Order 1042", "main"),
                el("d", Role::Button, "Delete order", "main/region[Order 1042]"),
                item("i", "Express shipping", "main/region[Order 1042]"),
            ],
            ..Default::default()
        };
        assert!(
            removal_controls(&veil_lifted).is_empty(),
            "a part of the page came back"
        );
        let many = Diff {
            appeared: ["Shirt M", "Hat S", "Socks"]
                .iter()
                .flat_map(|p| {
                    [
                        item(p, p, cart),
                        el(
                            &format!("r-{p}"),
                            Role::Button,
                            &format!("Remove {p}"),
                            cart,
                        ),
                    ]
                })
                .collect(),
            ..Default::default()
        };
        assert!(removal_controls(&many).is_empty(), "more than two");
        let todos = "main/list:todos";
        let edited = Diff {
            appeared: vec![
                item("t2", "Call supplier", todos),
                el("rm", Role::Button, "Remove Call supplier", todos),
            ],
            disappeared: vec![item("ed", "Call the supplier Save", todos)],
            ..Default::default()
        };
        assert!(
            removal_controls(&edited).is_empty(),
            "a row shown again in place of the one edited"
        );
    }

    #[test]
    fn residue_is_limited_to_what_the_wrong_effect_touched() {
        let wrong = Diff {
            appeared: vec![item("i1", "Trousers L", "cart")],
            ..Default::default()
        };
        let unrelated = Diff {
            appeared: vec![el("u", Role::Button, "Undo", "toast")],
            ..Default::default()
        };
        assert!(residue(&wrong, &unrelated).is_empty());
        assert_eq!(
            residue(&wrong, &wrong),
            ["appeared listitem[Trousers L] in cart"]
        );
    }

    #[test]
    fn moving_away_leaves_the_hovered_point() {
        let p = away_from(Point { x: 600.0, y: 20.0 });
        assert!(p.x < 10.0 && p.y < 10.0);
        assert!(away_from(Point { x: 5.0, y: 5.0 }).x > 100.0);
    }
}
