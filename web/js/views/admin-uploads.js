// The control room's music desk: everyone's uploads (each removed with a
// reason for the log), a person's upload quota, and fixing a track's
// title, artist or album (kept over the file's own tags, outliving
// rescans). Everything from files and people goes in as text.

import { h, fill, setText } from "../ui/dom.js";
import { request } from "../api/api.js";
import { toast } from "../ui/toast.js";
import { uploadsAPI, sizeText } from "../api/uploads.js";

const errorOf = (error) => (error && error.message) || "That didn't work: try again.";

/** Everyone's uploads, newest first, each with Remove (and a reason). */
export function uploadsPanel({ alive, changed }) {
  const status = h("p", { class: "lib-status", role: "status", "aria-live": "polite" });
  const list = h("ul", { class: "admin-uploads-list", "aria-label": "Uploaded music, newest first" });
  const row = (upload) => {
    const track = upload.track;
    const reason = h("input", {
      class: "input admin-reason",
      type: "text",
      maxlength: "500",
      placeholder: "Why? (for the log)",
      "aria-label": `Why remove ${track.title}`,
    });
    const form = h(
      "form",
      {
        class: "admin-action",
        onsubmit: async (event) => {
          event.preventDefault();
          const why = reason.value.trim();
          if (!why) {
            reason.focus();
            toast("Say why, for the log.");
            return;
          }
          try {
            await uploadsAPI.remove(upload.track.id, why);
            toast(`Removed “${track.title}”.`);
            changed();
            load();
          } catch (error) {
            toast(errorOf(error));
          }
        },
      },
      reason,
      h("button", { class: "btn btn-secondary btn-small admin-upload-remove", type: "submit" }, "Remove"),
    );
    return h(
      "li",
      { class: "admin-upload-row", dataset: { trackId: upload.track.id } },
      h(
        "span",
        {},
        h("strong", {}, track.title || upload.name),
        ` · ${track.artist || "Unknown Artist"} · ${sizeText(upload.bytes)} · by ${upload.uploaderName || "someone"}${upload.shared ? " · shared" : ""}`,
      ),
      form,
    );
  };
  const load = async () => {
    try {
      const uploads = await uploadsAPI.everyone();
      if (!alive()) return;
      setText(status, uploads.length ? "" : "Nobody has uploaded music yet.");
      fill(list, ...uploads.map(row));
    } catch (error) {
      if (alive()) setText(status, errorOf(error));
    }
  };
  load();
  const el = h(
    "section",
    { class: "admin-panel", "aria-labelledby": "admin-uploads-heading" },
    h("h2", { class: "section-title", id: "admin-uploads-heading" }, "Uploaded music"),
    status,
    list,
  );
  return { el, load };
}

/** Find a track, then correct its title, artist or album. */
export function tagFixPanel({ alive, changed }) {
  const query = h("input", {
    id: "tagfix-search",
    class: "input input-search",
    type: "search",
    autocomplete: "off",
    maxlength: "200",
    placeholder: "Title, artist or album",
  });
  const status = h("p", { class: "lib-status", role: "status", "aria-live": "polite" });
  const results = h("ul", { class: "tagfix-results", "aria-label": "Tracks found" });
  const editor = h("div", { class: "tagfix-editor" });

  const edit = (track) => {
    const input = (name, value, label) =>
      h(
        "label",
        { class: "label" },
        label,
        h("input", { class: "input", name, type: "text", maxlength: "200", value: value || "", "aria-label": `${label} of the track` }),
      );
    const form = h(
      "form",
      {
        class: "tagfix-form",
        onsubmit: async (event) => {
          event.preventDefault();
          const data = new FormData(form);
          try {
            const fixed = await uploadsAPI.fixTags(track.id, {
              title: data.get("title"),
              artist: data.get("artist"),
              album: data.get("album"),
            });
            const now = fixed.track;
            toast(`Saved: “${now.title}” by ${now.artist}, on ${now.album}.`);
            changed();
            find();
          } catch (error) {
            toast(errorOf(error));
          }
        },
      },
      h("p", { class: "muted" }, "Kept over the file's own tags; the file itself is never changed. Empty a field to give back the file's."),
      input("title", track.title, "Title"),
      input("artist", track.artist, "Artist"),
      input("album", track.album, "Album"),
      h("button", { class: "btn btn-primary btn-small tagfix-save", type: "submit" }, "Save the tags"),
    );
    fill(editor, form);
    form.querySelector("input").focus();
  };

  const find = async () => {
    const q = query.value.trim();
    if (!q) {
      fill(results);
      setText(status, "");
      return;
    }
    try {
      const found = await request(`/api/library/search?q=${encodeURIComponent(q)}&limit=10`);
      if (!alive()) return;
      setText(status, found.tracks.length ? "" : "Nothing found.");
      fill(
        results,
        ...found.tracks.map((track) =>
          h(
            "li",
            { class: "tagfix-result", dataset: { trackId: track.id } },
            h("span", {}, h("strong", {}, track.title), ` · ${track.artist} · ${track.album}`),
            h(
              "button",
              { class: "btn btn-secondary btn-small tagfix-edit", type: "button", "aria-label": `Fix the tags of ${track.title}`, onclick: () => edit(track) },
              "Fix tags",
            ),
          ),
        ),
      );
    } catch (error) {
      if (alive()) setText(status, errorOf(error));
    }
  };

  const el = h(
    "section",
    { class: "admin-panel", "aria-labelledby": "admin-tagfix-heading" },
    h("h2", { class: "section-title", id: "admin-tagfix-heading" }, "Fix a track's tags"),
    h(
      "form",
      { class: "people-search", role: "search", onsubmit: (event) => (event.preventDefault(), find()) },
      h("label", { class: "label", for: "tagfix-search" }, "Find a track"),
      h("div", { class: "search-field" }, query),
    ),
    status,
    results,
    editor,
  );
  return { el };
}

/** A person's upload quota: megabytes, or empty for the server's default. */
export function quotaForm(person, { changed }) {
  const field = h("input", {
    class: "input admin-quota",
    type: "number",
    min: "0",
    max: "1048576",
    inputmode: "numeric",
    placeholder: "Default",
    "aria-label": `${person.displayName}'s upload quota in MB (empty: the server's default)`,
  });
  return h(
    "form",
    {
      class: "admin-action admin-quota-form",
      onsubmit: async (event) => {
        event.preventDefault();
        const text = field.value.trim();
        const megabytes = text === "" ? null : Number(text);
        try {
          await uploadsAPI.setQuota(person.id, megabytes);
          toast(megabytes === null ? `${person.displayName} has the default quota.` : `${person.displayName} may upload ${megabytes} MB.`);
          changed();
        } catch (error) {
          toast(errorOf(error));
        }
      },
    },
    field,
    h("button", { class: "btn btn-secondary btn-small", type: "submit" }, "Set upload quota"),
  );
}
