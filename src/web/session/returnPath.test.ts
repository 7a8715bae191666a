import { describe, expect, it } from 'vitest';
import { forgetReturnPath, keepReturnPath, keptReturnPath, safeReturnPath } from './returnPath.ts';

function memoryStorage() {
  const items = new Map<string, string>();
  return {
    items,
    getItem: (key: string) => items.get(key) ?? null,
    setItem: (key: string, value: string) => void items.set(key, value),
    removeItem: (key: string) => void items.delete(key),
  };
}

describe('safeReturnPath', () => {
  it('takes a path of this origin with its query', () => {
    expect(safeReturnPath('/assessments/new?launch=abc-123')).toBe(
      '/assessments/new?launch=abc-123',
    );
    expect(safeReturnPath('/assessments/a%2F1?step=5#results')).toBe(
      '/assessments/a%2F1?step=5#results',
    );
  });

  it('refuses anything that could lead to another site', () => {
    for (const path of [
      '//evil.example',
      '//evil.example/assessments/new',
      '/\\evil.example',
      '/\\/evil.example',
      'https://evil.example/assessments/new',
      'http:/evil.example',
      'javascript:alert(1)',
      'assessments/new',
      ' /assessments/new',
      '/assessments/new\n//evil.example',
      '/assess\tments',
      '',
    ]) {
      expect(safeReturnPath(path), path).toBeNull();
    }
  });

  it('refuses the dashboard, the API and what is not text', () => {
    expect(safeReturnPath('/')).toBeNull();
    expect(safeReturnPath('/?signInError=refused')).toBeNull();
    expect(safeReturnPath('/api/session/oidc/start')).toBeNull();
    expect(safeReturnPath('/api')).toBeNull();
    expect(safeReturnPath(null)).toBeNull();
    expect(safeReturnPath(42)).toBeNull();
    expect(safeReturnPath(`/${'a'.repeat(2000)}`)).toBeNull();
  });

  it('takes a page whose name only starts like the API', () => {
    expect(safeReturnPath('/apiary')).toBe('/apiary');
  });
});

describe('the kept return path', () => {
  it('is kept, read back until forgotten', () => {
    const storage = memoryStorage();
    keepReturnPath('/assessments/new?launch=l-1', storage);
    expect(keptReturnPath(storage)).toBe('/assessments/new?launch=l-1');
    expect(keptReturnPath(storage)).toBe('/assessments/new?launch=l-1');
    forgetReturnPath(storage);
    expect(keptReturnPath(storage)).toBeNull();
  });

  it('is not replaced by leaving from the dashboard, nor by a path it refuses', () => {
    const storage = memoryStorage();
    keepReturnPath('/assessments/new?launch=l-1', storage);
    keepReturnPath('/', storage);
    keepReturnPath('//evil.example', storage);
    expect(keptReturnPath(storage)).toBe('/assessments/new?launch=l-1');
  });

  it('is not opened when what is stored is unsafe (written by something else)', () => {
    const storage = memoryStorage();
    storage.setItem('triage.returnAfterSignIn', 'https://evil.example/');
    expect(keptReturnPath(storage)).toBeNull();
    storage.setItem('triage.returnAfterSignIn', '//evil.example');
    expect(keptReturnPath(storage)).toBeNull();
  });

  it('does not fail when the browser refuses storage', () => {
    const refusing = {
      getItem: () => {
        throw new Error('blocked');
      },
      setItem: () => {
        throw new Error('quota');
      },
      removeItem: () => {
        throw new Error('blocked');
      },
    };
    expect(() => keepReturnPath('/assessments/new', refusing)).not.toThrow();
    expect(keptReturnPath(refusing)).toBeNull();
    expect(() => forgetReturnPath(refusing)).not.toThrow();
  });
});
