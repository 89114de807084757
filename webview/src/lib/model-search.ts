// The model picker's search: which catalog models match what the user typed, best first, and how a
// model is described in one line. Pure, so the ranking is unit-tested apart from the component.
import type { CatalogModel } from "$shared/gateway";

/** The vendor part of an OpenRouter-style id (`anthropic` of `anthropic/claude-sonnet-4`), else none. */
export function vendorOf(modelId: string): string | undefined {
  const slash = modelId.indexOf("/");
  return slash > 0 ? modelId.slice(0, slash) : undefined;
}

/** "128K context", "1M context", or nothing when the catalog does not say. */
export function contextLabel(contextLength: number | null): string {
  if (!contextLength || contextLength <= 0) return "";
  if (contextLength >= 1_000_000) return `${trim(contextLength / 1_000_000)}M context`;
  if (contextLength >= 1_000) return `${trim(contextLength / 1_000)}K context`;
  return `${contextLength} context`;
}

const trim = (n: number) => String(Number(n.toFixed(n < 10 ? 1 : 0)));

/**
 * Models matching every word of `query` in their id, name or vendor (case-insensitive), best
 * first: an exact id, then ids and names starting with the query, then the rest; ties keep the
 * catalog's order. An empty query lists every model.
 */
export function searchModels<M extends Pick<CatalogModel, "id" | "label">>(models: readonly M[], query: string): M[] {
  const q = query.trim().toLowerCase();
  if (!q) return [...models];
  const words = q.split(/\s+/);
  const scored: { model: M; rank: number; order: number }[] = [];
  models.forEach((model, order) => {
    const id = model.id.toLowerCase();
    const label = model.label.toLowerCase();
    const haystack = `${id} ${label} ${vendorOf(id) ?? ""}`;
    if (!words.every((word) => haystack.includes(word))) return;
    const idName = id.slice(id.indexOf("/") + 1);
    const rank =
      id === q
        ? 0
        : id.startsWith(q) || idName.startsWith(q)
          ? 1
          : label.startsWith(q)
            ? 2
            : id.includes(q) || label.includes(q)
              ? 3
              : 4;
    scored.push({ model, rank, order });
  });
  return scored.sort((a, b) => a.rank - b.rank || a.order - b.order).map((entry) => entry.model);
}

/**
 * Whether what the user typed should be offered as a model id the list does not show
 * (`name@revision`, a model behind a LiteLLM wildcard route): one word, and not already an id.
 */
export function typedModelId(models: readonly Pick<CatalogModel, "id">[], query: string): string | undefined {
  const id = query.trim();
  if (!id || /\s/.test(id) || models.some((model) => model.id === id)) return undefined;
  return id;
}

/**
 * What the picker's button shows for a model, short enough for a side panel's footer: its name in the
 * catalog without the vendor OpenRouter puts first ("Anthropic: Claude Sonnet 4" → "Claude Sonnet 4"),
 * else its id (a typed or unlisted one). The list and the button's tooltip keep the whole of both.
 */
export function modelName(models: readonly Pick<CatalogModel, "id" | "label">[], modelId: string): string {
  const label = models.find((model) => model.id === modelId)?.label;
  if (!label) return modelId;
  return /^[^:]{1,40}:\s+(\S.*)$/.exec(label)?.[1] ?? label;
}
