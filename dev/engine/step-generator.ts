// The step generator (pulumi/pulumi pkg/resource/deploy/step_generator.go): what a registration
// means against the old state. It finds the old resource (URNs, aliases), runs Check and Diff
// through the provider, and decides the steps: same, create, update, replace (create before delete,
// or delete before replace with the dependents that go first), or the recreate of a dependent; at
// the end, which old resources are deleted. It applies nothing: dev/engine/step-executor.ts does
// (step.go's Apply, step_executor.go), and dev/engine/deployment.ts keeps the state between them.
import type { Step } from "./display";
import type { CheckResult, DiffResult, PropertyMap, ProviderHost } from "./host";
import { UNKNOWN } from "./host";
import type { AliasSpec, Registration } from "./monitor";
import { applyIgnoreChanges, diffPaths, formatPath, parsePropertyPath, pathContains, type PropertyPath } from "./property-path";
import type { ResourceState } from "./state";
import { createUrn, newUrn, qualifiedType, ROOT_STACK_TYPE, urnName } from "./urn";

export const DYNAMIC_PREFIX = "pulumi-nodejs:dynamic";

function canonical(v: unknown): string {
  return JSON.stringify(v, (_k, val: unknown) =>
    val && typeof val === "object" && !Array.isArray(val)
      ? Object.fromEntries(Object.entries(val as Record<string, unknown>).sort(([a], [b]) => a.localeCompare(b)))
      : val,
  );
}

/** Changed input properties between two input sets, for display; the serialized provider text is left out. */
export function inputDiffs(olds: PropertyMap, news: PropertyMap): string[] {
  const diffs: string[] = [];
  for (const k of Object.keys(news)) {
    if (k === "__provider") continue;
    if (!(k in olds)) diffs.push("+" + k);
    else if (canonical(olds[k]) !== canonical(news[k])) diffs.push("~" + k);
  }
  for (const k of Object.keys(olds)) if (k !== "__provider" && !(k in news)) diffs.push("-" + k);
  return diffs;
}

/**
 * diffResource (step_generator.go): a provider answering DiffUnknown (no `diff` method) gets the
 * engine's own diff of old and new inputs, every key included: its changed keys and, as the
 * detailed diff there, the changed paths under them.
 */
export function classify(
  diff: DiffResult,
  oldInputs: PropertyMap,
  newInputs: PropertyMap,
): { changes: boolean; changedKeys: string[]; paths: PropertyPath[] } {
  if (diff.changes !== undefined) {
    const paths: PropertyPath[] = [];
    for (const p of Object.keys(diff.detailedDiff ?? {})) {
      try {
        paths.push(parsePropertyPath(p));
      } catch {
        // A path that does not parse names nothing replaceOnChanges could contain.
      }
    }
    return { changes: diff.changes, changedKeys: diff.diffs, paths };
  }
  const keys = new Set([...Object.keys(oldInputs), ...Object.keys(newInputs)]);
  const changedKeys = [...keys].filter((k) => canonical(oldInputs[k]) !== canonical(newInputs[k]));
  return { changes: changedKeys.length > 0, changedKeys, paths: diffPaths(oldInputs, newInputs) };
}

/**
 * The provider's replace keys and the paths its detailed diff replaces: either makes a replace
 * (plugin.DiffResult.Replace).
 */
export function replacesOf(diff: DiffResult): string[] {
  const detailed = Object.entries(diff.detailedDiff ?? {}).filter(([, d]) => d.kind.endsWith("Replace")).map(([p]) => p);
  return [...new Set([...diff.replaces, ...detailed])];
}

/**
 * applyReplaceOnChanges (step_generator.go): a changed key, or a changed path of the detailed diff,
 * that lies under a replaceOnChanges path (PropertyPath.Contains) becomes a replace key. So a path
 * `a.b` replaces on a change of `a.b` or under it, not on one of its sibling `a.c`. Throws on a path
 * that does not parse, as there.
 */
export function replaceKeysWith(
  replaces: readonly string[],
  changed: { changedKeys: readonly string[]; paths: readonly PropertyPath[] },
  replaceOnChanges: readonly string[],
): string[] {
  const rocs = replaceOnChanges.map((p) => parsePropertyPath(p));
  const under = (p: PropertyPath): boolean => rocs.some((r) => pathContains(r, p));
  const out = new Set(replaces);
  for (const k of changed.changedKeys) {
    let keyPath: PropertyPath;
    try {
      keyPath = parsePropertyPath(k);
    } catch {
      continue;
    }
    if (under(keyPath)) out.add(k);
  }
  for (const p of changed.paths) if (under(p)) out.add(formatPath(p));
  return [...out];
}

/** DependingOn's edges (graph/dependency_graph.go, children left out): dependencies, property dependencies, deletedWith. */
export function dependsOnAny(d: ResourceState, urns: ReadonlySet<string>): boolean {
  return (
    (d.deletedWith !== undefined && urns.has(d.deletedWith)) ||
    d.dependencies.some((u) => urns.has(u)) ||
    Object.values(d.propertyDependencies ?? {}).some((deps) => deps.some((u) => urns.has(u)))
  );
}

/** What `d` must be deleted before: its parent, what it depends on, what it is deleted with. */
export function dependedOnBy(d: ResourceState): string[] {
  return [
    ...(d.parent ? [d.parent] : []),
    ...(d.deletedWith ? [d.deletedWith] : []),
    ...d.dependencies,
    ...Object.values(d.propertyDependencies ?? {}).flat(),
  ];
}

/**
 * URNs that some item still waiting depends on, leaving out an item's own URN (the old and new
 * halves of a replace share one). One pass, so a layer costs O(N), not O(N²): 10,000 resources
 * made 10^8 pair checks per destroy.
 */
export function blockedUrns(items: { r: ResourceState }[]): Set<string> {
  const out = new Set<string>();
  for (const { r } of items) for (const urn of dependedOnBy(r)) if (urn !== r.urn) out.add(urn);
  return out;
}


/** What the generator decided for a custom resource's registration (generateSteps). */
export type Plan =
  | { kind: "create"; checked: PropertyMap }
  | { kind: "same"; old: ResourceState; checked: PropertyMap }
  | { kind: "update"; old: ResourceState; checked: PropertyMap }
  /** Create before delete: the old half is deleted with the other deletes at the end. */
  | { kind: "replace"; old: ResourceState; checked: PropertyMap }
  /** Delete before replace: `chain` is deleted in order (dependents first), then the replacement created. */
  | { kind: "deleteBeforeReplace"; old: ResourceState; checked: PropertyMap; chain: DeleteChain }
  /** A dependent deleted earlier in this run by a delete-before-replace, created again without a Diff. */
  | { kind: "recreate"; old: ResourceState; checked: PropertyMap };

/** The deletes a delete-before-replace runs in order before its create (one step chain). */
export interface DeleteChain {
  items: { r: ResourceState; replacing: boolean }[];
  /** URNs deleted in this run, the chain's included: what is deletedWith one of them makes no Delete. */
  deletions: Set<string>;
}

export interface StepGeneratorOptions {
  preview: boolean;
  /** Check and Diff (the generator calls the provider for both, as step_generator.go does). */
  host: Pick<ProviderHost, "check" | "diff">;
  olds: ResourceState[];
  project: string;
  stack: string;
  log(line: string): void;
  /** An error that does not stop the run (sawError): it fails when it is done. */
  reportError(message: string): void;
}

export class StepGenerator {
  private readonly olds: ResourceState[];
  private readonly live = new Map<string, ResourceState>();
  /** URNs registered (or read) in this run. */
  private readonly urns = new Set<string>();
  private readonly aliased = new Map<string, string>();
  /** The registrations of this run by URN, for their children to inherit from. */
  private readonly goals = new Map<string, Registration>();
  private readonly aliases = new Map<string, string>();
  /** Olds the program registered again (by URN or alias): not deleted at the end. */
  private readonly matched = new Set<ResourceState>();
  private readonly replaced = new Set<string>();
  /** sg.deletes: URNs a delete-before-replace deleted in this run; a dependent among them that registers is recreated. */
  private readonly deletes = new Set<string>();
  /** sg.pendingDeletes: the states those deletes were for. */
  private readonly pendingDeletes = new Set<ResourceState>();
  /** sg.dependentReplaceKeys: why each dependent is replaced, shown when it is recreated. */
  private readonly dependentReplaceKeys = new Map<string, string[]>();

  constructor(private readonly opts: StepGeneratorOptions) {
    this.olds = opts.olds;
    for (const o of opts.olds) if (!o.delete) this.live.set(o.urn, o);
  }

  /** checkParent: a parent must have registered before its child. */
  checkParent(reg: Registration): void {
    if (reg.parent && !this.urns.has(reg.parent)) throw new Error(`could not find parent resource ${reg.parent}`);
  }

  /** generateURN: the registration's URN, refused when it is taken. */
  generateURN(reg: Registration): string {
    const urn = createUrn(reg.name, reg.type, reg.parent, this.opts.project, this.opts.stack);
    if (this.urns.has(urn)) throw new Error(`Duplicate resource URN '${urn}'; try giving it a unique name`);
    this.urns.add(urn);
    this.goals.set(urn, reg);
    return urn;
  }

  /** The registration of this run under a URN (a parent's, for inheritFromParent). */
  goal(urn: string): Registration | undefined {
    return this.goals.get(urn);
  }

  // ---- aliases: generateAliases, collapseAliasToUrn, inheritedChildAlias ----

  private collapseAlias(name: string, type: string, parent: string, a: AliasSpec): string {
    if ("urn" in a) return a.urn;
    let p = a.parentUrn ?? parent;
    if (a.parentUrn && this.aliases.has(a.parentUrn)) p = this.aliases.get(a.parentUrn)!;
    if (a.noParent || (p !== "" && qualifiedType(p) === ROOT_STACK_TYPE)) p = "";
    return createUrn(a.name ?? name, a.type ?? type, p, a.project ?? this.opts.project, a.stack ?? this.opts.stack);
  }

  private inheritedChildAlias(childType: string, childName: string, parentName: string, parentAlias: string): string {
    const aliasName = childName.startsWith(parentName) ? urnName(parentAlias) + childName.slice(parentName.length) : childName;
    return newUrn(this.opts.stack, this.opts.project, qualifiedType(parentAlias), childType, aliasName);
  }

  private generateAliases(reg: Registration): string[] {
    const out = new Set<string>();
    for (const a of reg.aliases) out.add(this.collapseAlias(reg.name, reg.type, reg.parent, a));
    const parentAlias = reg.parent ? this.aliases.get(reg.parent) : undefined;
    if (parentAlias) {
      const parentName = urnName(reg.parent);
      out.add(this.inheritedChildAlias(reg.type, reg.name, parentName, parentAlias));
      for (const a of reg.aliases) {
        const child = this.collapseAlias(reg.name, reg.type, reg.parent, a);
        const childType = qualifiedType(child).split("$").pop() ?? reg.type;
        out.add(this.inheritedChildAlias(childType, urnName(child), parentName, parentAlias));
      }
    }
    return [...out];
  }

  /** getOldResource: by URN first, then by alias; an alias claimed twice is an error. */
  getOld(urn: string, reg: Registration): ResourceState | undefined {
    // A resource registering under a URN another resource already claimed through an alias.
    const claimedBy = this.aliased.get(urn);
    if (claimedBy) throw new Error(`Duplicate resource URN '${urn}' conflicting with alias on resource with URN '${claimedBy}'`);
    for (const candidate of [urn, ...this.generateAliases(reg)]) {
      const old = this.live.get(candidate);
      if (!old) continue;
      if (candidate !== urn) {
        if (this.urns.has(candidate)) throw new Error(`Duplicate resource alias '${candidate}' applied to resource with URN '${urn}' conflicting with resource with URN '${candidate}'`);
        const previous = this.aliased.get(candidate);
        if (previous) throw new Error(`Duplicate resource alias '${candidate}' applied to resource with URN '${urn}' conflicting with resource with URN '${previous}'`);
        this.aliased.set(candidate, urn);
        this.aliases.set(urn, candidate);
      }
      this.matched.add(old);
      return old;
    }
    return undefined;
  }

  /** processIgnoreChanges: the ignored paths take their old values; what cannot be reset is said, as there. */
  private ignoreChanges(urn: string, news: PropertyMap, olds: PropertyMap, paths: readonly string[]): PropertyMap {
    const { inputs, invalid } = applyIgnoreChanges(news, olds, paths);
    if (invalid.length > 0) {
      this.opts.log(`    info: ${urnName(urn)}: cannot ignore changes in added or removed elements of the path: ${JSON.stringify(invalid.join(", "))}`);
    }
    return inputs;
  }

  /**
   * GenerateSteps for a custom resource whose old state (`old`, after an import) is known: Check
   * (ignoreChanges first, olds the old inputs), then Diff (diffResource, applyReplaceOnChanges), then
   * the steps (generateStepsFromDiff). Fills the display step's op, id, diffs and replaces. `fail`
   * records the step as failed and throws.
   */
  async generateSteps(urn: string, reg: Registration, plain: PropertyMap, old: ResourceState | undefined, step: Step, fail: (e: unknown) => never): Promise<Plan> {
    const { preview, host } = this.opts;
    const news = old ? this.ignoreChanges(urn, plain, old.inputs, reg.ignoreChanges) : plain;
    const check = async (olds: PropertyMap): Promise<PropertyMap> => {
      let res: CheckResult;
      try {
        res = await host.check(urn, olds, news);
      } catch (e) {
        return fail(e);
      }
      if (res.failures.length > 0) return fail(new Error(res.failures.map((f) => `${f.property}: ${f.reason}`).join("; ")));
      return res.inputs;
    };
    // Recreating a dependent deleted earlier in this run by a delete-before-replace: its old inputs
    // are gone, so Check gets no olds (generateResourceSteps, `recreating`).
    const recreating = old !== undefined && this.deletes.has(urn);
    const checked = await check(recreating ? {} : (old?.inputs ?? {}));

    if (!old) {
      if (preview && checked.adopt === true) step.adopt = true;
      return { kind: "create", checked };
    }

    step.id = old.id;
    step.diffs = inputDiffs(old.inputs, checked);
    if (recreating) {
      // Case 1 of generateResourceSteps: a replacement, without a Diff, for the reason it was deleted.
      this.deletes.delete(urn);
      this.replaced.add(urn);
      step.op = "replace";
      step.replaces = this.dependentReplaceKeys.get(urn) ?? [];
      return { kind: "recreate", old, checked };
    }

    // Diff (generateStepsFromDiff, diffResource, applyReplaceOnChanges).
    let changes = false;
    let replaces: string[] = [];
    let providerDbr = false;
    if (!old.pendingReplacement) {
      if (reg.deletedWith && this.replaced.has(reg.deletedWith)) {
        changes = true;
        replaces = ["deletedWith"];
      } else {
        let diff: DiffResult;
        try {
          diff = await host.diff(old.id, urn, old.outputs, checked, reg.ignoreChanges);
        } catch (e) {
          return fail(e);
        }
        const c = classify(diff, old.inputs, checked);
        changes = c.changes;
        try {
          replaces = changes ? replaceKeysWith(replacesOf(diff), c, reg.replaceOnChanges) : [];
        } catch (e) {
          return fail(e);
        }
        providerDbr = diff.deleteBeforeReplace;
      }
    }
    const hasInitErrors = (old.initErrors?.length ?? 0) > 0;

    if ((changes && replaces.length > 0) || old.pendingReplacement) {
      if (reg.protect && old.protect) {
        const message = `unable to replace resource "${urn}" as it is currently marked for protection. To unprotect the resource, remove the \`protect\` flag from the resource in your Pulumi program and run \`pulumi up\``;
        // An update stops here; a preview reports the error and goes on, so the whole plan is shown,
        // and fails when it is done (generateStepsFromDiff, sawError).
        if (!preview) return fail(new Error(message));
        this.opts.reportError(`${urn}: ${message}`);
      }
      step.op = "replace";
      step.replaces = replaces;
      this.replaced.add(urn);
      // A replacement is checked again without olds: the old defaults no longer apply.
      const rechecked = await check({});
      const deleteFirst = reg.deleteBeforeReplace ?? providerDbr;
      if (deleteFirst || old.pendingReplacement) {
        let chain: DeleteChain;
        try {
          chain = await this.deleteBeforeReplace(old, deleteFirst);
        } catch (e) {
          return fail(e);
        }
        return { kind: "deleteBeforeReplace", old, checked: rechecked, chain };
      }
      return { kind: "replace", old, checked: rechecked };
    }

    if (!changes && !hasInitErrors) {
      step.op = "same";
      return { kind: "same", old, checked };
    }
    // An update; also "continuing" a resource left with init errors, with no change at all.
    step.op = "update";
    return { kind: "update", old, checked };
  }

  /**
   * Delete-before-replace (generateStepsFromDiff): the dependents that would be replaced by the old's
   * deletion are deleted first, dependents of dependents before them, then the old; each is kept as
   * `pendingReplacement` until it is recreated. Throws, before anything is deleted, when one of them
   * is protected.
   */
  private async deleteBeforeReplace(old: ResourceState, withDependents: boolean): Promise<DeleteChain> {
    const dependents = withDependents ? [...(await this.dependentReplacements(old)), ...this.cascadeReplacements(old.urn)] : [];
    const items: { r: ResourceState; replacing: boolean }[] = [];
    for (const { r, keys } of dependents.reverse()) {
      if (this.pendingDeletes.has(r)) continue;
      this.dependentReplaceKeys.set(r.urn, keys);
      if (!r.delete && r.protect) {
        throw new Error(
          `unable to replace resource "${r.urn}" as part of replacing "${old.urn}" as it is currently marked for protection. To unprotect the resource, remove the \`protect\` flag from the resource in your Pulumi program and run \`pulumi up\`, or use the command: \`pulumi state unprotect '${r.urn}'\``,
        );
      }
      // One already waiting for its delete (`delete: true`) gets a plain delete.
      items.push({ r, replacing: !r.delete });
      this.deletes.add(r.urn);
      this.pendingDeletes.add(r);
    }
    if (!old.pendingReplacement) {
      // Marked before any delete runs, so what is deletedWith the old makes no provider call.
      this.deletes.add(old.urn);
      items.push({ r: old, replacing: true });
    }
    return { items, deletions: this.deletes };
  }

  /**
   * calculateDependentReplacements: the old resources that depend on `root` (DependingOn:
   * dependencies, property dependencies, deletedWith; not children), in state order, that a
   * replacement of `root` would replace: one deletedWith a replaced resource always; one with an
   * input that came from a replaced resource when its provider's Diff, that input made unknown, asks
   * for a replace. Resources this run has already registered or deleted are left out.
   */
  private async dependentReplacements(root: ResourceState): Promise<{ r: ResourceState; keys: string[] }[]> {
    const at = this.olds.indexOf(root);
    // An import in a preview is not in the old state: it has no dependents there.
    if (at < 0) return [];
    const dependentSet = new Set([root.urn]);
    const replaceSet = new Set([root.urn]);
    const out: { r: ResourceState; keys: string[] }[] = [];
    for (const d of this.olds.slice(at + 1)) {
      if (this.urns.has(d.urn) || this.deletes.has(d.urn) || !dependsOnAny(d, dependentSet)) continue;
      dependentSet.add(d.urn);
      const keys = await this.requiresReplacement(d, replaceSet);
      if (keys) {
        out.push({ r: d, keys });
        replaceSet.add(d.urn);
      }
    }
    return out;
  }

  /** requiresReplacement in calculateDependentReplacements: the replace keys, or undefined. */
  private async requiresReplacement(d: ResourceState, replaceSet: Set<string>): Promise<string[] | undefined> {
    if (!d.custom || d.external) return undefined;
    if (d.deletedWith !== undefined && replaceSet.has(d.deletedWith)) return [];
    const affected = (k: string): boolean => (d.propertyDependencies?.[k] ?? []).some((u) => replaceSet.has(u));
    if (!Object.keys(d.inputs).some(affected)) return undefined;
    const news = Object.fromEntries(Object.entries(d.inputs).map(([k, v]) => [k, affected(k) ? UNKNOWN : v]));
    const diff = await this.opts.host.diff(d.id, d.urn, d.outputs, news, d.ignoreChanges ?? []);
    // diffResource: a DiffUnknown answer gets the engine's own diff, ignoreChanges applied first.
    const c = classify(diff, d.inputs, applyIgnoreChanges(news, d.inputs, d.ignoreChanges ?? []).inputs);
    const replaces = replaceKeysWith(replacesOf(diff), c, d.replaceOnChanges ?? []);
    return replaces.length > 0 ? replaces : undefined;
  }

  /**
   * findDependentCascadeReplacements: what is deletedWith `urn` goes too. Only olds: a new resource
   * deletedWith it registers after its registration is answered.
   */
  private cascadeReplacements(urn: string): { r: ResourceState; keys: string[] }[] {
    return [...this.live.values()].filter((o) => o.deletedWith === urn).map((r) => ({ r, keys: [] }));
  }

  /**
   * GenerateReadSteps: a `.get()` registers its URN; over a managed resource (not external) read by
   * another id it is a ReadReplacementStep, the managed object to be deleted with the other deletes;
   * by its own id, a relinquish (TestRelinquishStep). Returns the old resource and whether it is replaced.
   */
  generateReadSteps(urn: string, id: string): { old: ResourceState | undefined; replacing: boolean } {
    this.urns.add(urn);
    const old = this.live.get(urn);
    return { old, replacing: !!old && !old.external && old.custom && old.id !== id && !this.opts.preview };
  }

  /**
   * GenerateDeletes, after the program is done: olds it no longer registers (not claimed by an alias),
   * old halves of create-before-delete replaces (`condemned`), and deletes left pending by an earlier
   * run. What a delete-before-replace already deleted stays in state as pendingReplacement when the
   * program did not register it again, until the next run (isOperatedOn, pendingDeletes).
   */
  generateDeletes(state: { consumed: ReadonlySet<ResourceState>; gone: ReadonlySet<ResourceState>; condemned: readonly ResourceState[] }): DeleteChain {
    const deletedBefore = (o: ResourceState): boolean => (o.delete ? this.pendingDeletes.has(o) : this.deletes.has(o.urn));
    const items = [
      ...this.olds.filter((o) => !this.matched.has(o) && !state.consumed.has(o) && !state.gone.has(o) && !deletedBefore(o)).map((r) => ({ r, replacing: !!r.delete })),
      ...state.condemned.filter((c) => !state.gone.has(c)).map((r) => ({ r, replacing: true })),
    ];
    return { items, deletions: new Set([...this.deletes, ...items.map((it) => it.r.urn)]) };
  }
}
