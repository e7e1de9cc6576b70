package namecollide_test

// TestDowsePutMaxFailures is declared in the external test package.
var TestDowsePutMaxFailures = 1
