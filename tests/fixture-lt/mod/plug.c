long plug_run(long n);

long plug_run(long n)
{
	long s = 1;
	for (long i = 1; i < n; i++)
		s = (s * 31 + i) % 1000003;
	return s;
}
