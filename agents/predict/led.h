/*
 * led.h: the pieces of led reckoning (Steele, paper 000) that tests and
 * the replay experiment use directly: the correlation score C (eq. 7),
 * the position threshold eta_p (eq. 8) and the blend time B_t (eq. 9).
 */
#ifndef RECKON_PREDICT_LED_H
#define RECKON_PREDICT_LED_H

#include "predict/trend.h"

enum led_corr {
	LED_CORR_COSINE,   /* C = |u(Vb) . u(Vp)| (A3 default, A4 literal) */
	LED_CORR_SIGNED,   /* C = max(0, u(Vb) . u(Vp)) (A4 variant) */
	LED_CORR_STRENGTH, /* C = min(1, |u(Vb) . Vp| / s_ref) (A3 variant) */
};

/* Eq. 7 on the X-Y components of the blended model velocity vb and the
 * trend vp. Undefined (|vb| or |vp| below 1e-6 u/s) gives `empty`. */
double led_correlation(const double vb[2], const double vp[2], int mode,
		       double s_ref, double empty);
/* Eq. 8: eta_min + c (eta_max - eta_min). */
double led_threshold(double c, double eta_min, double eta_max);
/* Eq. 9: K / eta. */
double led_blend_time(double k, double eta);

#endif
