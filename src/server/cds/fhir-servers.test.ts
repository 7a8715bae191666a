import { describe, expect, it } from 'vitest';
import {
  checkedFhirServerUrl,
  namedAddresses,
  refusedRange,
  registeredServerOf,
} from './fhir-servers.ts';

describe('the FHIR servers a CDS client registers', () => {
  it('are https (http only to this machine), without credentials, query or trailing slash', () => {
    expect(checkedFhirServerUrl('https://fhir.clinic.example/r4/')).toEqual({
      url: 'https://fhir.clinic.example/r4',
    });
    expect(checkedFhirServerUrl('https://FHIR.clinic.example:443')).toEqual({
      url: 'https://fhir.clinic.example',
    });
    expect(checkedFhirServerUrl('http://127.0.0.1:8080/fhir')).toEqual({
      url: 'http://127.0.0.1:8080/fhir',
    });
    for (const text of [
      'http://fhir.clinic.example/r4',
      'https://user:secret@fhir.clinic.example/r4',
      'https://fhir.clinic.example/r4?tenant=a',
      'https://fhir.clinic.example/r4#top',
      'ftp://fhir.clinic.example/',
      'fhir.clinic.example',
    ]) {
      expect(checkedFhirServerUrl(text), text).toHaveProperty('problem');
    }
  });

  it('admit a fhirServer of the same scheme, host and port under the registered path', () => {
    const registered = ['https://fhir.clinic.example/r4', 'https://other.example'];
    const under = (text: string) => registeredServerOf(new URL(text), registered);
    expect(under('https://fhir.clinic.example/r4')).toBe(registered[0]);
    expect(under('https://fhir.clinic.example/r4/')).toBe(registered[0]);
    expect(under('https://fhir.clinic.example:443/r4/tenant-a')).toBe(registered[0]);
    expect(under('https://other.example/anything')).toBe(registered[1]);
    for (const text of [
      'http://fhir.clinic.example/r4',
      'https://fhir.clinic.example:8443/r4',
      'https://fhir.clinic.example/r4x',
      'https://fhir.clinic.example/r',
      'https://fhir.clinic.example/r4/../admin',
      'https://fhir.clinic.example.attacker.example/r4',
      'https://user@fhir.clinic.example/r4',
    ]) {
      expect(under(text), text).toBeUndefined();
    }
  });

  it('refuse loopback, private, link-local and other special addresses unless named', () => {
    const none = new Set<string>();
    expect(refusedRange('93.184.216.34', none)).toBeUndefined();
    expect(refusedRange('2606:2800:220:1:248:1893:25c8:1946', none)).toBeUndefined();
    expect(refusedRange('127.0.0.1', none)).toBe('loopback');
    expect(refusedRange('::1', none)).toBe('loopback');
    expect(refusedRange('::ffff:127.0.0.1', none)).toBe('loopback');
    expect(refusedRange('10.1.2.3', none)).toBe('private');
    expect(refusedRange('192.168.0.10', none)).toBe('private');
    expect(refusedRange('169.254.169.254', none)).toBe('linkLocal');
    expect(refusedRange('fe80::1', none)).toBe('linkLocal');
    expect(refusedRange('fd00::1', none)).toBe('uniqueLocal');
    expect(refusedRange('0.0.0.0', none)).toBe('unspecified');
    const named = namedAddresses([
      'http://127.0.0.1:8080/fhir',
      'https://[fd00::5]/fhir',
      'https://fhir.clinic.example/r4',
    ]);
    expect([...named].sort()).toEqual(['127.0.0.1', 'fd00:0:0:0:0:0:0:5']);
    expect(refusedRange('127.0.0.1', named)).toBeUndefined();
    expect(refusedRange('::ffff:127.0.0.1', named)).toBeUndefined();
    expect(refusedRange('fd00::5', named)).toBeUndefined();
    expect(refusedRange('127.0.0.2', named)).toBe('loopback');
  });
});
