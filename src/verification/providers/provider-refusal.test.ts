import { describe, expect, it } from 'vitest';
import { providerBlocksUs } from './provider-refusal.js';

describe('providerBlocksUs', () => {
  it("counts a provider's own block replies, as the prober reports them", () => {
    expect(providerBlocksUs('mx01.mail.icloud.com', '550 5.7.1 [CS01] Message rejected due to local policy.')).toBe(true);
    expect(providerBlocksUs('mx0a-001.pphosted.com', 'banner 554 Blocked - see https://ipcheck.proofpoint.com/?ip=192.0.2.1')).toBe(true);
    expect(providerBlocksUs('acme-com.mail.protection.outlook.com', '550 5.7.606 Access denied, banned sending IP [192.0.2.1].')).toBe(
      true,
    );
  });

  it("not a slow-down, an unknown user, another provider's words, or an unprofiled host", () => {
    expect(providerBlocksUs('aspmx.l.google.com', '421 4.7.0 Try again later, closing connection.')).toBe(false);
    expect(providerBlocksUs('acme-com.mail.protection.outlook.com', '550 5.4.1 Recipient address rejected: Access denied.')).toBe(false);
    expect(providerBlocksUs('mx01.mail.icloud.com', '554 Blocked - see https://ipcheck.proofpoint.com/?ip=192.0.2.1')).toBe(false);
    expect(providerBlocksUs('mx.acme.com', '550 5.7.1 [CS01] Message rejected due to local policy.')).toBe(false);
    expect(providerBlocksUs('mx01.mail.icloud.com', 'not a reply at all')).toBe(false);
  });
});
