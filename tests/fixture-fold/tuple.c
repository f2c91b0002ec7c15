/* tuple.c - the tuple kind's concat slot: the same code as list.c's, another function.  Its own
 * unit, so that no compiler folds the two (GCC's -fipa-icf works within a unit). */
unsigned long tuple_concat(unsigned long a, unsigned long b)
{
	return (a * 1000003) ^ (b + (a >> 7));
}
