import { expect } from '@open-wc/testing';
import { sessionValue } from '../../src/client/session.js';

describe('session values', () => {
  afterEach(() => sessionStorage.clear());

  it('keeps a value in sessionStorage, and removes it', () => {
    expect(sessionValue('billing-test', 'one')).to.equal(null);
    expect(sessionStorage.getItem('billing-test')).to.equal('one');
    expect(sessionValue('billing-test')).to.equal('one');
    sessionValue('billing-test', null);
    expect(sessionStorage.getItem('billing-test')).to.equal(null);
    expect(sessionValue('billing-test')).to.equal(null);
  });

  it("keeps values in the page's memory where storage refuses", () => {
    const storage = Storage.prototype;
    const { getItem, setItem, removeItem } = storage;
    const refuse = () => {
      throw new DOMException('Storage is disabled', 'SecurityError');
    };
    Object.assign(storage, { getItem: refuse, setItem: refuse, removeItem: refuse });
    try {
      expect(sessionValue('a')).to.equal(null);
      expect(sessionValue('a', 'one')).to.equal('one');
      expect(sessionValue('a')).to.equal('one');
      expect(sessionValue('b')).to.equal(null);
      expect(sessionValue('a', null)).to.equal(null);
      expect(sessionValue('a')).to.equal(null);
      expect(sessionValue('a', '')).to.equal('');
      expect(sessionValue('a')).to.equal('');
    } finally {
      Object.assign(storage, { getItem, setItem, removeItem });
    }
    expect(sessionValue('a')).to.equal(null);
  });
});
