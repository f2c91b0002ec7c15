long calc_sum(long n);
long calc_mix(long n);
unsigned long calc_hash(const char *s, long n);
long calc_table(long n);
const char *calc_build(void);
