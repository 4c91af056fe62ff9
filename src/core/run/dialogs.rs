//! The record's `dialogs`: how a JavaScript dialog that opened during a step is worded.
//!
//! Each driver hears dialogs its own way (the harness answers `Page.javascriptDialogOpening`
//! itself, the npm and Python packages read the answer from `Page.javascriptDialogClosed`,
//! whoever gave it), and hands what it heard here, so every surface writes the same line:
//! `alert "Saved!" dismissed`. The message is capped, since a page chooses its length, and
//! a step lists at most [`PER_STEP`] dialogs, since a page chooses how many it opens.

use crate::core::text::cap;
use serde::Deserialize;

/// The most dialogs one step's record lists; later ones are answered but not listed.
pub const PER_STEP: usize = 20;

/// The most characters of a dialog's message a line keeps.
pub const MESSAGE_CHARS: usize = 120;

/// A dialog as the DevTools protocol reports it, and how it was answered.
#[derive(Debug, Clone, PartialEq, Eq, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct Dialog {
    /// `alert`, `confirm`, `prompt` or `beforeunload`.
    #[serde(rename = "type")]
    pub kind: String,
    pub message: String,
    /// Accepted (OK) rather than dismissed; a prompt's text is never recorded.
    pub accepted: bool,
}

/// One dialog's line: its kind, its message quoted (escaped, capped) and its answer.
pub fn line(dialog: &Dialog) -> String {
    let message = cap(&dialog.message, MESSAGE_CHARS);
    let how = if dialog.accepted {
        "accepted"
    } else {
        "dismissed"
    };
    format!("{} {message:?} {how}", dialog.kind)
}

/// The lines of a step's dialogs, in the order they opened, the first [`PER_STEP`] of them.
pub fn lines(dialogs: &[Dialog]) -> Vec<String> {
    dialogs.iter().take(PER_STEP).map(line).collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn dialog(kind: &str, message: &str, accepted: bool) -> Dialog {
        Dialog {
            kind: kind.to_owned(),
            message: message.to_owned(),
            accepted,
        }
    }

    #[test]
    fn lines_name_the_kind_the_quoted_message_and_the_answer() {
        let cases = [
            (
                dialog("alert", "Saved!", false),
                r#"alert "Saved!" dismissed"#,
            ),
            (
                dialog("confirm", "Delete item?", true),
                r#"confirm "Delete item?" accepted"#,
            ),
            (
                dialog("prompt", "Say \"hi\"\nnow", false),
                r#"prompt "Say \"hi\"\nnow" dismissed"#,
            ),
            (
                dialog("beforeunload", "", false),
                r#"beforeunload "" dismissed"#,
            ),
        ];
        for (d, want) in cases {
            assert_eq!(line(&d), want, "{d:?}");
        }
    }

    #[test]
    fn a_long_message_is_capped() {
        let long = "é".repeat(MESSAGE_CHARS + 5);
        let want = format!("alert \"{}…\" dismissed", "é".repeat(MESSAGE_CHARS));
        assert_eq!(line(&dialog("alert", &long, false)), want);
        let exact = "x".repeat(MESSAGE_CHARS);
        assert_eq!(
            line(&dialog("alert", &exact, false)),
            format!("alert \"{exact}\" dismissed")
        );
    }

    #[test]
    fn a_step_lists_at_most_per_step_dialogs_the_first_ones() {
        let many: Vec<Dialog> = (0..PER_STEP + 3)
            .map(|i| dialog("alert", &i.to_string(), false))
            .collect();
        let got = lines(&many);
        assert_eq!(got.len(), PER_STEP);
        assert_eq!(got[0], r#"alert "0" dismissed"#);
        assert_eq!(
            got[PER_STEP - 1],
            format!("alert \"{}\" dismissed", PER_STEP - 1)
        );
        assert!(lines(&[]).is_empty());
    }

    #[test]
    fn the_wire_form_is_the_protocol_type_and_the_answer() {
        let d: Dialog =
            serde_json::from_str(r#"{"type":"confirm","message":"Sure?","accepted":true}"#)
                .unwrap();
        assert_eq!(d, dialog("confirm", "Sure?", true));
        assert!(serde_json::from_str::<Dialog>(r#"{"type":"alert","message":"x"}"#).is_err());
    }
}
