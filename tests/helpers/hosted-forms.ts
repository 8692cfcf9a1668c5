/**
 * A page's server-action form submitted as a browser submits it before (or without) the page's
 * scripts: a multipart POST of the form's fields to the page's own address, with the page's
 * Origin, answered by a 303 to where the action redirects.
 */

const ENTITIES: Record<string, string> = { '&quot;': '"', '&#x27;': "'", '&#39;': "'", '&lt;': '<', '&gt;': '>', '&amp;': '&' };

function decode(value: string): string {
  return value.replace(/&(?:quot|#x27|#39|lt|gt|amp);/g, (entity) => ENTITIES[entity]!);
}

/** The fields of the form of `html` whose text contains `containing` (its inputs with their values). */
export function formFields(html: string, containing: string): FormData {
  const form = [...html.matchAll(/<form\b[\s\S]*?<\/form>/g)].map((match) => match[0]).find((text) => text.includes(containing));
  if (!form) throw new Error(`No form containing "${containing}" on the page.`);
  const fields = new FormData();
  for (const [input] of form.matchAll(/<input\b[^>]*>/g)) {
    const attributes = new Map([...input.matchAll(/([\w$:-]+)="([^"]*)"/g)].map(([, name, value]) => [name!, decode(value!)]));
    const name = attributes.get('name');
    if (name) fields.append(name, attributes.get('value') ?? '');
  }
  return fields;
}

/** Submits that form from the page at `pageUrl`; the answer is not followed. */
export async function submitForm(pageUrl: string, html: string, containing: string): Promise<Response> {
  return fetch(pageUrl, { method: 'POST', body: formFields(html, containing), headers: { origin: new URL(pageUrl).origin }, redirect: 'manual' });
}
