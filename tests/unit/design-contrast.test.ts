import { describe, expect, it } from 'vitest';
import { contrastOnPage, contrastRatio, formatRatio } from '@/lib/designs/contrast';
import { decodeLogo, sniffImageType } from '@/lib/designs/logos';
import { designCssVariables } from '@/lib/designs/style';

describe('WCAG contrast', () => {
  it('matches the reference ratios', () => {
    expect(contrastRatio('#000000', '#ffffff')).toBeCloseTo(21, 5);
    expect(contrastRatio('#ffffff', '#ffffff')).toBe(1);
    // #767676 is the lightest grey that passes AA on white; #777777 is just below.
    expect(contrastRatio('#767676', '#ffffff')).toBeGreaterThanOrEqual(4.5);
    expect(contrastRatio('#777777', '#ffffff')).toBeLessThan(4.5);
    expect(contrastRatio('#3856e0', '#ffffff')).toBeCloseTo(contrastRatio('#ffffff', '#3856e0'), 10);
  });

  it('rounds down when shown, so a failing ratio never reads as passing', () => {
    expect(formatRatio(4.4999)).toBe('4.49:1');
    expect(formatRatio(contrastRatio('#777777', '#ffffff'))).toBe('4.47:1');
  });

  it('judges a link colour on its lightest background', () => {
    expect(contrastOnPage('#2c43b8')).toBeLessThan(contrastRatio('#2c43b8', '#ffffff'));
  });
});

describe('logo bytes', () => {
  it('knows PNG, JPEG and WebP by their signatures only', () => {
    expect(sniffImageType(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0]))).toBe('image/png');
    expect(sniffImageType(Buffer.from([0xff, 0xd8, 0xff, 0xe0]))).toBe('image/jpeg');
    expect(sniffImageType(Buffer.concat([Buffer.from('RIFF\0\0\0\0WEBP')]))).toBe('image/webp');
    expect(sniffImageType(Buffer.from('RIFF\0\0\0\0WAVE'))).toBeUndefined();
    expect(sniffImageType(Buffer.from('GIF89a'))).toBeUndefined();
  });

  it('refuses SVG with a BOM or leading whitespace as markup', () => {
    const svg = Buffer.from('\uFEFF  <svg xmlns="http://www.w3.org/2000/svg"/>').toString('base64');
    expect(() => decodeLogo(svg)).toThrow(/SVG/);
  });
});

describe('design CSS variables', () => {
  it('give each corner style its radii', () => {
    const base = { brandColor: '#111111', buttonTextColor: '#ffffff', accentColor: '#222222' };
    expect(designCssVariables({ ...base, cornerStyle: 'square' })['--design-radius']).toBe('0px');
    // A pill rounds buttons and fields fully; boxes keep a bounded radius (not an ellipse).
    expect(designCssVariables({ ...base, cornerStyle: 'pill' })).toMatchObject({ '--design-control-radius': '9999px', '--design-radius': '0.75rem' });
    expect(designCssVariables({ ...base, cornerStyle: 'rounded' })).toMatchObject({
      '--design-brand': '#111111',
      '--design-button-text': '#ffffff',
      '--design-accent': '#222222',
    });
  });
});
