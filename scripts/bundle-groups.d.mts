// Types of bundle-groups.mjs, for test/unit/bundle-groups.test.ts.
export function groupNeverRunModules(text: string, ran: ReadonlySet<string>): { text: string; groups: Array<{ inits: string[] }> }
