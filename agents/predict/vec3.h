/*
 * vec3.h: the few 3-vector and 3x3-matrix helpers the predictors share,
 * as static inline functions on double[3] and double[3][3]. Pure.
 */
#ifndef RECKON_PREDICT_VEC3_H
#define RECKON_PREDICT_VEC3_H

#include <math.h>

static inline void v3_set(double o[3], double x, double y, double z)
{
	o[0] = x;
	o[1] = y;
	o[2] = z;
}

static inline void v3_copy(double o[3], const double a[3])
{
	o[0] = a[0];
	o[1] = a[1];
	o[2] = a[2];
}

/* o = a + k * b (o may alias a or b) */
static inline void v3_axpy(double o[3], const double a[3], double k,
			   const double b[3])
{
	o[0] = a[0] + k * b[0];
	o[1] = a[1] + k * b[1];
	o[2] = a[2] + k * b[2];
}

static inline void v3_sub(double o[3], const double a[3], const double b[3])
{
	o[0] = a[0] - b[0];
	o[1] = a[1] - b[1];
	o[2] = a[2] - b[2];
}

static inline double v3_dot(const double a[3], const double b[3])
{
	return a[0] * b[0] + a[1] * b[1] + a[2] * b[2];
}

static inline double v3_norm(const double a[3])
{
	return sqrt(v3_dot(a, a));
}

static inline double v3_dist(const double a[3], const double b[3])
{
	double d[3];

	v3_sub(d, a, b);
	return v3_norm(d);
}

static inline int v3_finite(const double a[3])
{
	return isfinite(a[0]) && isfinite(a[1]) && isfinite(a[2]);
}

/* o = a x b (o may alias a or b) */
static inline void v3_cross(double o[3], const double a[3], const double b[3])
{
	double r[3] = {a[1] * b[2] - a[2] * b[1], a[2] * b[0] - a[0] * b[2],
		       a[0] * b[1] - a[1] * b[0]};

	v3_copy(o, r);
}

/* o = M a */
static inline void m3_mul_v(double o[3], const double m[3][3],
			    const double a[3])
{
	double r[3];

	for (int i = 0; i < 3; i++)
		r[i] = m[i][0] * a[0] + m[i][1] * a[1] + m[i][2] * a[2];
	v3_copy(o, r);
}

/* o = M^T a */
static inline void m3_tmul_v(double o[3], const double m[3][3],
			     const double a[3])
{
	double r[3];

	for (int i = 0; i < 3; i++)
		r[i] = m[0][i] * a[0] + m[1][i] * a[1] + m[2][i] * a[2];
	v3_copy(o, r);
}

/* o = A B (o may alias neither) */
static inline void m3_mul(double o[3][3], const double a[3][3],
			  const double b[3][3])
{
	for (int i = 0; i < 3; i++)
		for (int j = 0; j < 3; j++)
			o[i][j] = a[i][0] * b[0][j] + a[i][1] * b[1][j] +
				  a[i][2] * b[2][j];
}

/* Wrap an angle into (-pi, pi]. */
static inline double angle_wrap(double a)
{
	a = fmod(a, 2.0 * M_PI);
	if (a > M_PI)
		a -= 2.0 * M_PI;
	else if (a <= -M_PI)
		a += 2.0 * M_PI;
	return a;
}

#endif
