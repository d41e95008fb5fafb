/** Counters for tests: requests per route and usage changes actually applied. */
export class Stats {
  requests: Record<string, number> = {};
  appliedUsageChanges = 0;
  appliedUsageChangesByCustomer: Record<string, number> = {};
  faultsTriggered = 0;
  /** API requests received and not yet answered (a delayed answer counts until it is sent). */
  inFlight = 0;

  request(route: string): void {
    this.requests[route] = (this.requests[route] ?? 0) + 1;
  }

  usageApplied(customerRef: string): void {
    this.appliedUsageChanges += 1;
    this.appliedUsageChangesByCustomer[customerRef] =
      (this.appliedUsageChangesByCustomer[customerRef] ?? 0) + 1;
  }

  clear(): void {
    this.requests = {};
    this.appliedUsageChanges = 0;
    this.appliedUsageChangesByCustomer = {};
    this.faultsTriggered = 0;
  }

  toJSON() {
    return {
      requests: { ...this.requests },
      appliedUsageChanges: this.appliedUsageChanges,
      appliedUsageChangesByCustomer: { ...this.appliedUsageChangesByCustomer },
      faultsTriggered: this.faultsTriggered,
      inFlight: this.inFlight,
    };
  }
}
