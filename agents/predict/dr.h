/*
 * dr.h: the nine IEEE 1278.1 dead-reckoning algorithms (DIS 7 annex E;
 * Towers & Hines, "Equations of motion of the DIS 2.0.3 dead reckoning
 * algorithms", 1994) as pure functions: the world-to-body matrix R0 from
 * Euler angles, the rotation matrix DR(dt), the body-frame integrals
 * R1(dt) and R2(dt) with their limits as |omega| -> 0, Euler extraction,
 * and the extrapolation of an update to a later time.
 */
#ifndef RECKON_PREDICT_DR_H
#define RECKON_PREDICT_DR_H

#include "predict/update.h"

/* R0: world -> body rotation from psi, theta, phi (radians). */
void dr_r0(const double ori[3], double r0[3][3]);
/* DR(dt) = ((1-c)/w^2) ww' + c I - (s/w) W, -> I as w -> 0. */
void dr_rotation(const double w[3], double dt, double m[3][3]);
/* R1(dt) = ((w dt - s)/w^3) ww' + (s/w) I + ((1-c)/w^2) W, -> dt I. */
void dr_r1(const double w[3], double dt, double m[3][3]);
/* R2(dt) = ((w^2dt^2/2 - c - w dt s + 1)/w^4) ww' + ((c + w dt s - 1)/w^2) I
 *        + ((s - w dt c)/w^3) W, -> dt^2/2 I. */
void dr_r2(const double w[3], double dt, double m[3][3]);
/* psi, theta, phi of a world -> body matrix; at theta = +-90 deg (gimbal
 * lock) phi = 0 and psi carries the whole turn about the vertical. */
void dr_euler(const double m[3][3], double ori[3]);

/* Body-axis acceleration of the *B algorithms: the derivative of the body
 * velocity V_b = R0 v, A_b = dV_b/dt = R0 a - w x V_b, for world velocity
 * v, inertial (world) acceleration a and body angular velocity w. With
 * this A_b the R1/R2 integrals reproduce a steady turn exactly (A_b = 0). */
void dr_body_acc(const double ori[3], const double w[3], const double vel[3],
		 const double acc[3], double ab[3]);
/* The reverse: the inertial acceleration a = R0' (A_b + w x V_b). */
void dr_world_acc(const double ori[3], const double w[3], const double vel[3],
		  const double ab[3], double acc[3]);

/* Extrapolate update u by dt seconds with its algorithm u->drm. Writes the
 * world position, the orientation and the world-frame velocity (vel may
 * be NULL). -EINVAL for PREDICT_DRM_OTHER or an unknown algorithm. */
int dr_extrapolate(const struct predict_update *u, double dt, double pos[3],
		   double ori[3], double vel[3]);

/* 1 if algorithm a is body-frame (FPB, RPB, RVB, FVB). */
int dr_is_body(int a);
/* 1 if algorithm a is second order (RVW, FVW, RVB, FVB). */
int dr_is_second_order(int a);
/* 1 if algorithm a rotates the orientation (RPW, RVW, RPB, RVB). */
int dr_is_rotating(int a);

#endif
