import { expect } from '@open-wc/testing';
import { getSessionValue, removeSessionValue, setSessionValue } from '../../src/client/session.js';

describe('session values', () => {
  afterEach(() => sessionStorage.clear());

  it('keeps a value in sessionStorage, and removes it', () => {
    setSessionValue('billing-test', 'one');
    expect(sessionStorage.getItem('billing-test')).to.equal('one');
    expect(getSessionValue('billing-test')).to.equal('one');
    removeSessionValue('billing-test');
    expect(sessionStorage.getItem('billing-test')).to.equal(null);
    expect(getSessionValue('billing-test')).to.equal(null);
  });

  it("keeps values in the page's memory where storage refuses", () => {
    const storage = Storage.prototype;
    const { getItem, setItem, removeItem } = storage;
    const refuse = () => {
      throw new DOMException('Storage is disabled', 'SecurityError');
    };
    Object.assign(storage, { getItem: refuse, setItem: refuse, removeItem: refuse });
    try {
      expect(getSessionValue('a')).to.equal(null);
      setSessionValue('a', 'one');
      expect(getSessionValue('a')).to.equal('one');
      expect(getSessionValue('b')).to.equal(null);
      removeSessionValue('a');
      expect(getSessionValue('a')).to.equal(null);
      setSessionValue('a', '');
      expect(getSessionValue('a')).to.equal('');
    } finally {
      Object.assign(storage, { getItem, setItem, removeItem });
    }
    expect(getSessionValue('a')).to.equal(null);
  });
});
