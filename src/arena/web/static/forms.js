// Parameter forms from the server's Param metadata (as `arena games` / `arena agents` list them),
// and the spec string "name:key=value,..." they make. Empty fields keep the default.

export function paramForm(box, params, compact = false) {
  box.innerHTML = "";
  const holder = box.closest("details");
  if (holder) holder.hidden = !params.length;
  for (const p of params) {
    if (compact && p.name === "seed") continue;
    const label = document.createElement("label");
    label.title = p.text;
    label.append(`${p.name} `);
    let input;
    if (p.choices) {
      input = document.createElement("select");
      input.add(new Option(`${p.default ?? p.defaultText ?? ""}`, ""));
      for (const c of p.choices) if (c !== p.default) input.add(new Option(c, c));
    } else if (p.type === "bool") {
      input = document.createElement("select");
      input.add(new Option(p.default ? "1" : "0", ""));
      input.add(new Option(p.default ? "0" : "1", p.default ? "0" : "1"));
    } else {
      input = document.createElement("input");
      input.type = "text";
      input.size = 5;
      input.placeholder = p.default === null ? (p.defaultText || "") : String(p.default);
    }
    input.dataset.param = p.name;
    label.appendChild(input);
    box.appendChild(label);
  }
}

export function specOf(name, box, params) {
  const parts = [];
  for (const input of box.querySelectorAll("[data-param]")) {
    const value = input.value.trim();
    if (value !== "") parts.push(`${input.dataset.param}=${value}`);
  }
  return parts.length ? `${name}:${parts.join(",")}` : name;
}
